// JDK oracle for the mutf8 sweep: runs DataInputStream.readUTF / DataOutputStream.writeUTF
// on the cases the sweep sends and writes back what the JDK did.
//
// Framing (all integers big-endian), stdin: a sequence of requests
//   'D' u32 n, n bytes       decode: the bytes are a readUTF body (n <= 65535)
//   'E' u32 n, n u16 chars   encode: writeUTF of the string made of those chars
//   'L' u32 n, n u16 chars   long string: ObjectOutputStream.writeObject of the string
//   'C' u32 n, n u16 chars   CESU-8: String.getBytes(CESU-8) of the string
//   'c' u32 n, n bytes       CESU-8: the charset's decoder (malformed input reported) on the bytes
// stdout: one reply per request, in order
//   'O' u32 n, n u16 chars   readUTF returned these chars
//   'O' u32 n, n bytes       writeUTF / writeObject wrote this body (without the length)
//   'O' u32 n, n u16 chars   the CESU-8 decoder returned these chars
//   'X' u32 n, n bytes       the JDK threw: its message in UTF-8 ("malformed input around byte 5");
//                            for the CESU-8 decoder "malformed at P" (P: the input position)
import java.io.*;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.*;

public class Mutf8Parity {
    public static void main(String[] args) throws IOException {
        DataInputStream in = new DataInputStream(new BufferedInputStream(System.in, 1 << 16));
        DataOutputStream out = new DataOutputStream(new BufferedOutputStream(System.out, 1 << 16));
        while (true) {
            int op = in.read();
            if (op < 0) {
                break;
            }
            int n = in.readInt();
            switch (op) {
                case 'D': {
                    byte[] body = new byte[n];
                    in.readFully(body);
                    ByteArrayOutputStream framed = new ByteArrayOutputStream(n + 2);
                    framed.write(n >>> 8);
                    framed.write(n);
                    framed.write(body);
                    DataInputStream record =
                            new DataInputStream(new ByteArrayInputStream(framed.toByteArray()));
                    try {
                        String s = record.readUTF();
                        out.writeByte('O');
                        out.writeInt(s.length());
                        for (int i = 0; i < s.length(); i++) {
                            out.writeChar(s.charAt(i));
                        }
                    } catch (IOException e) {
                        error(out, e);
                    }
                    break;
                }
                case 'E':
                case 'L': {
                    char[] chars = new char[n];
                    for (int i = 0; i < n; i++) {
                        chars[i] = in.readChar();
                    }
                    String s = new String(chars);
                    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
                    try {
                        int skip;
                        if (op == 'E') {
                            new DataOutputStream(buffer).writeUTF(s);
                            skip = 2;
                        } else {
                            ObjectOutputStream oos = new ObjectOutputStream(buffer);
                            oos.writeObject(s);
                            oos.flush();
                            // stream header (4 bytes), then TC_STRING + u16 length
                            // or TC_LONGSTRING + u64 length.
                            byte tc = buffer.toByteArray()[4];
                            skip = 4 + 1 + (tc == 0x7C ? 8 : 2);
                        }
                        byte[] all = buffer.toByteArray();
                        out.writeByte('O');
                        out.writeInt(all.length - skip);
                        out.write(all, skip, all.length - skip);
                    } catch (IOException e) {
                        error(out, e);
                    }
                    break;
                }
                case 'C': {
                    char[] chars = new char[n];
                    for (int i = 0; i < n; i++) {
                        chars[i] = in.readChar();
                    }
                    byte[] bytes = new String(chars).getBytes(Charset.forName("CESU-8"));
                    out.writeByte('O');
                    out.writeInt(bytes.length);
                    out.write(bytes);
                    break;
                }
                case 'c': {
                    byte[] bytes = new byte[n];
                    in.readFully(bytes);
                    CharsetDecoder decoder = Charset.forName("CESU-8").newDecoder()
                            .onMalformedInput(CodingErrorAction.REPORT)
                            .onUnmappableCharacter(CodingErrorAction.REPORT);
                    ByteBuffer src = ByteBuffer.wrap(bytes);
                    CharBuffer dst = CharBuffer.allocate(n + 1);
                    CoderResult result = decoder.decode(src, dst, true);
                    if (!result.isError()) {
                        result = decoder.flush(dst);
                    }
                    if (result.isError()) {
                        byte[] message = ("malformed at " + src.position()).getBytes(StandardCharsets.UTF_8);
                        out.writeByte('X');
                        out.writeInt(message.length);
                        out.write(message);
                    } else {
                        dst.flip();
                        out.writeByte('O');
                        out.writeInt(dst.remaining());
                        while (dst.hasRemaining()) {
                            out.writeChar(dst.get());
                        }
                    }
                    break;
                }
                default:
                    throw new IOException("unknown request " + op);
            }
        }
        out.flush();
    }

    static void error(DataOutputStream out, IOException e) throws IOException {
        String message = e.getClass().getSimpleName() + ": " + e.getMessage();
        byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
        out.writeByte('X');
        out.writeInt(bytes.length);
        out.write(bytes);
    }
}
