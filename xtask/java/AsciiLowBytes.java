// JDK oracle for the ascii sweep: runs String.getBytes(int srcBegin, int srcEnd, byte[] dst,
// int dstBegin), the low-8-bit copy, on the strings the sweep sends, and writes the bytes back.
//
// Framing (all integers big-endian), stdin: a sequence of requests
//   u32 n, n u16 chars, u32 k, then k ranges: u32 srcBegin, u32 srcEnd
//     the string is made of exactly those chars (lone surrogates included)
// stdout: one reply per request, in order
//   u32 length()            the string's length as Java sees it
//   for each range: u32 m, m bytes   what getBytes(srcBegin, srcEnd, dst, 1) wrote at dst[1..]
//
// The bytes are written at dstBegin = 1 of a buffer one longer and prefilled, so that a JDK
// that wrote outside [dstBegin, dstBegin + m) would be caught here (it exits with status 1).
import java.io.*;

public class AsciiLowBytes {
    @SuppressWarnings("deprecation") // getBytes(int, int, byte[], int) is the point
    public static void main(String[] args) throws IOException {
        DataInputStream in = new DataInputStream(new BufferedInputStream(System.in, 1 << 16));
        DataOutputStream out = new DataOutputStream(new BufferedOutputStream(System.out, 1 << 16));
        while (true) {
            int first = in.read();
            if (first < 0) {
                break;
            }
            int n = (first << 24) | (in.read() << 16) | (in.readUnsignedShort());
            char[] chars = new char[n];
            for (int i = 0; i < n; i++) {
                chars[i] = in.readChar();
            }
            String s = new String(chars);
            out.writeInt(s.length());
            int ranges = in.readInt();
            for (int r = 0; r < ranges; r++) {
                int begin = in.readInt();
                int end = in.readInt();
                int m = end - begin;
                byte[] dst = new byte[m + 2];
                dst[0] = (byte) 0xA5;
                dst[m + 1] = (byte) 0xA5;
                s.getBytes(begin, end, dst, 1);
                if (dst[0] != (byte) 0xA5 || dst[m + 1] != (byte) 0xA5) {
                    System.err.println("getBytes wrote outside its range");
                    System.exit(1);
                }
                out.writeInt(m);
                out.write(dst, 1, m);
            }
        }
        out.flush();
    }
}
