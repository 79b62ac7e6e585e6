// JVM oracle for the mutf8 sweep's class-file check: for each candidate, builds a minimal
// class whose constant pool holds the candidate as a CONSTANT_Utf8 entry (referenced by
// nothing) and defines it with a class loader, so that HotSpot's class-file parser checks
// it as it checks any class from a class loader.
//
// Arguments: the class-file major version (48 and up).
// Framing (all integers big-endian), stdin: a sequence of candidates
//   u32 n, n bytes
// stdout: one reply per candidate, in order
//   'A'                      defined: the JVM accepts the bytes
//   'R'                      ClassFormatError "Illegal UTF8 string in constant pool"
//   'X' u32 n, n bytes       anything else (the exception, in UTF-8): never expected
import java.io.*;
import java.nio.charset.StandardCharsets;

public class ClassFileUtf8 {
    static final class Loader extends ClassLoader {
        Loader() {
            super(null);
        }

        Class<?> define(byte[] b, int len) {
            return defineClass(null, b, 0, len);
        }
    }

    public static void main(String[] args) throws IOException {
        int major = Integer.parseInt(args[0]);
        DataInputStream in = new DataInputStream(new BufferedInputStream(System.in, 1 << 16));
        DataOutputStream out = new DataOutputStream(new BufferedOutputStream(System.out, 1 << 16));
        // The class up to the candidate's length field, with a name of fixed width.
        ByteArrayOutputStream headBuf = new ByteArrayOutputStream();
        DataOutputStream head = new DataOutputStream(headBuf);
        head.writeInt(0xCAFEBABE);
        head.writeShort(0);
        head.writeShort(major);
        head.writeShort(6); // constant pool count: entries 1..5
        head.writeByte(1); // #1 Utf8: this class's name
        head.writeUTF("C0000000000");
        head.writeByte(7); // #2 Class #1
        head.writeShort(1);
        head.writeByte(1); // #3 Utf8
        head.writeUTF("java/lang/Object");
        head.writeByte(7); // #4 Class #3
        head.writeShort(3);
        head.writeByte(1); // #5 Utf8: the candidate
        byte[] prefix = headBuf.toByteArray();
        int nameAt = 4 + 2 + 2 + 2 + 1 + 2;
        byte[] tail = {
            0x00, 0x21, // ACC_PUBLIC | ACC_SUPER
            0x00, 0x02, // this_class
            0x00, 0x04, // super_class
            0, 0, 0, 0, 0, 0, 0, 0, // interfaces, fields, methods, attributes
        };
        byte[] cls = new byte[prefix.length + 2 + 65535 + tail.length];
        System.arraycopy(prefix, 0, cls, 0, prefix.length);
        Loader loader = new Loader();
        long count = 0;
        while (true) {
            int n;
            try {
                n = in.readInt();
            } catch (EOFException e) {
                break;
            }
            int at = prefix.length;
            cls[at++] = (byte) (n >>> 8);
            cls[at++] = (byte) n;
            in.readFully(cls, at, n);
            at += n;
            System.arraycopy(tail, 0, cls, at, tail.length);
            at += tail.length;
            // A fresh name for every class, a fresh loader every so often (so that the
            // classes can be unloaded).
            long k = count++;
            for (int d = 9; d >= 0; d--) {
                cls[nameAt + 1 + d] = (byte) ('0' + (k % 10));
                k /= 10;
            }
            if (count % 4096 == 0) {
                loader = new Loader();
            }
            try {
                loader.define(cls, at);
                out.writeByte('A');
            } catch (ClassFormatError e) {
                String m = String.valueOf(e.getMessage());
                if (m.startsWith("Illegal UTF8 string in constant pool")) {
                    out.writeByte('R');
                } else {
                    other(out, e);
                }
            } catch (Throwable e) {
                other(out, e);
            }
        }
        out.flush();
    }

    static void other(DataOutputStream out, Throwable e) throws IOException {
        byte[] bytes = (e.getClass().getName() + ": " + e.getMessage()).getBytes(StandardCharsets.UTF_8);
        out.writeByte('X');
        out.writeInt(bytes.length);
        out.write(bytes);
    }
}
