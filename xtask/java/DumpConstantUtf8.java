// Writes every CONSTANT_Utf8 entry of every class in the running JDK's image (the jrt:/
// file system) to the file named by the first argument, as readUTF records (a big-endian
// u16 length, then the bytes as the class file holds them), in module and path order.
// Prints the number of classes and entries.
import java.io.*;
import java.net.URI;
import java.nio.file.*;
import java.util.*;
import java.util.stream.*;

public class DumpConstantUtf8 {
    public static void main(String[] args) throws IOException {
        FileSystem jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
        List<Path> classes;
        try (Stream<Path> walk = Files.walk(jrt.getPath("/modules"))) {
            classes = walk.filter(p -> p.toString().endsWith(".class"))
                    .sorted(Comparator.comparing(Path::toString))
                    .collect(Collectors.toList());
        }
        long entries = 0;
        try (DataOutputStream out = new DataOutputStream(
                new BufferedOutputStream(new FileOutputStream(args[0]), 1 << 16))) {
            for (Path path : classes) {
                entries += dump(ByteBufferInput.of(Files.readAllBytes(path)), out);
            }
        }
        System.out.println(classes.size() + " classes, " + entries + " CONSTANT_Utf8 entries");
    }

    /** The constant pool of one class file: its Utf8 entries to `out`. */
    static long dump(DataInputStream in, DataOutputStream out) throws IOException {
        in.skipNBytes(8); // magic, minor, major
        int count = in.readUnsignedShort();
        long entries = 0;
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1: { // Utf8
                    int len = in.readUnsignedShort();
                    byte[] bytes = in.readNBytes(len);
                    out.writeShort(len);
                    out.write(bytes);
                    entries++;
                    break;
                }
                case 3: case 4: // Integer, Float
                case 9: case 10: case 11: case 12: // refs, NameAndType
                case 17: case 18: // Dynamic, InvokeDynamic
                    in.skipNBytes(4);
                    break;
                case 5: case 6: // Long, Double: two slots
                    in.skipNBytes(8);
                    i++;
                    break;
                case 7: case 8: case 16: case 19: case 20: // Class, String, MethodType, Module, Package
                    in.skipNBytes(2);
                    break;
                case 15: // MethodHandle
                    in.skipNBytes(3);
                    break;
                default:
                    throw new IOException("constant pool tag " + tag);
            }
        }
        return entries;
    }

    static final class ByteBufferInput {
        static DataInputStream of(byte[] bytes) {
            return new DataInputStream(new ByteArrayInputStream(bytes));
        }
    }
}
