// The JDK oracle of the `charset` sweep: what String.getBytes(Charset) writes.
//
// stdin: records until end of input, each
//   u16 name length, the charset name (ASCII), u32 unit count, the UTF-16 units (big-endian u16;
//   unpaired surrogates allowed, as in any Java String)
// stdout: per record, u32 byte count then the bytes of new String(units).getBytes(charset).
// A charset this JDK does not know is a failure (exit status 1, the name on stderr).

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

public class CharsetEncode {
    public static void main(String[] args) throws IOException {
        DataInputStream in = new DataInputStream(new BufferedInputStream(System.in, 1 << 16));
        DataOutputStream out = new DataOutputStream(new BufferedOutputStream(System.out, 1 << 16));
        Map<String, Charset> charsets = new HashMap<>();
        while (true) {
            int nameLength;
            try {
                nameLength = in.readUnsignedShort();
            } catch (EOFException end) {
                break;
            }
            byte[] name = new byte[nameLength];
            in.readFully(name);
            String charsetName = new String(name, StandardCharsets.US_ASCII);
            int units = in.readInt();
            char[] chars = new char[units];
            for (int i = 0; i < units; i++) {
                chars[i] = in.readChar();
            }
            Charset charset = charsets.computeIfAbsent(charsetName, Charset::forName);
            byte[] bytes = new String(chars).getBytes(charset);
            out.writeInt(bytes.length);
            out.write(bytes);
        }
        out.flush();
    }
}
