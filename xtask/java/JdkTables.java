// The JDK's charsets as data, for `cargo xtask jdk-tables`: every charset of
// Charset.availableCharsets() that can encode, with its canonical name, aliases, replacement
// bytes and kind, and for a single-byte charset what String.getBytes writes for every char.
//
// stdout, one record per line:
//   jdk <java.version> <java.vendor>
//   charset <name> <kind> <replacement hex> <alias,alias,...|->
//     kind: unicode (the UTF-8/16/32 and CESU-8 family), single (every char is one byte: the
//     lines `b2c` and `extra` follow), multi (everything else)
//   b2c <256 x 4 hex digits>: for each byte, the char the JDK decodes it to when that char
//     encodes back to it, else the lowest char that encodes to it, else ffff (none)
//   extra <cccc:bb ...|->: every other char that encodes (one-way mappings)
//
// What is checked here: a single-byte charset writes one byte per char for every BMP char,
// every supplementary code point and every lone surrogate (shown by encoding them all in one
// string); a char that `canEncode` refuses is written as the replacement; a supplementary
// code point and a lone surrogate are written as the replacement. Any other outcome fails
// (exit status 1, the reason on stderr).

import java.io.BufferedOutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;

public class JdkTables {
    static final Set<String> UNICODE = Set.of(
            "UTF-8", "CESU-8", "UTF-16", "UTF-16BE", "UTF-16LE", "x-UTF-16LE-BOM",
            "UTF-32", "UTF-32BE", "UTF-32LE", "X-UTF-32BE-BOM", "X-UTF-32LE-BOM");

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(new BufferedOutputStream(System.out, 1 << 16), false, "US-ASCII");
        out.println("jdk " + System.getProperty("java.version") + " " + System.getProperty("java.vendor").replace(' ', '_'));
        StringBuilder bmp = new StringBuilder();
        for (int c = 0; c < 0x10000; c++) {
            if (!Character.isSurrogate((char) c)) {
                bmp.append((char) c);
            }
        }
        StringBuilder supplementary = new StringBuilder();
        for (int c = 0x10000; c <= 0x10FFFF; c++) {
            supplementary.appendCodePoint(c);
        }
        StringBuilder lone = new StringBuilder();
        for (int c = 0xD800; c <= 0xDFFF; c++) {
            lone.append((char) c).append('a');
        }
        String all = bmp.toString();
        for (Charset cs : Charset.availableCharsets().values()) {
            if (!cs.canEncode()) {
                continue;
            }
            CharsetEncoder encoder = cs.newEncoder();
            byte[] replacement = encoder.replacement();
            List<String> aliases = new ArrayList<>(cs.aliases());
            Collections.sort(aliases);
            String kind;
            if (UNICODE.contains(cs.name())) {
                kind = "unicode";
            } else if (all.getBytes(cs).length == all.length()
                    && supplementary.toString().getBytes(cs).length == supplementary.length() / 2
                    && lone.toString().getBytes(cs).length == lone.length()) {
                kind = "single";
            } else {
                kind = "multi";
            }
            out.println("charset " + cs.name() + " " + kind + " " + hex(replacement) + " "
                    + (aliases.isEmpty() ? "-" : String.join(",", aliases)));
            if (kind.equals("single")) {
                single(out, cs, encoder, replacement, all, supplementary.toString(), lone.toString());
            }
        }
        out.flush();
        if (out.checkError()) {
            System.exit(1);
        }
    }

    static void single(PrintStream out, Charset cs, CharsetEncoder encoder, byte[] replacement,
            String all, String supplementary, String lone) {
        if (replacement.length != 1) {
            fail(cs, "a replacement of " + replacement.length + " bytes");
        }
        byte[] bytes = all.getBytes(cs);
        int[] map = new int[0x10000];
        Arrays.fill(map, -1);
        for (int i = 0; i < all.length(); i++) {
            char c = all.charAt(i);
            if (encoder.canEncode(c)) {
                map[c] = bytes[i] & 0xFF;
            } else if (bytes[i] != replacement[0]) {
                fail(cs, String.format("U+%04X cannot be encoded but is written as %02x", (int) c, bytes[i] & 0xFF));
            }
        }
        for (byte b : supplementary.getBytes(cs)) {
            if (b != replacement[0]) {
                fail(cs, "a supplementary char is not written as the replacement");
            }
        }
        byte[] lones = lone.getBytes(cs);
        for (int i = 0; i < lones.length; i += 2) {
            if (lones[i] != replacement[0]) {
                fail(cs, "a lone surrogate is not written as the replacement");
            }
        }
        int[] b2c = new int[256];
        Arrays.fill(b2c, 0xFFFF);
        for (int b = 0; b < 256; b++) {
            String decoded = new String(new byte[] {(byte) b}, cs);
            if (decoded.length() == 1 && map[decoded.charAt(0)] == b) {
                b2c[b] = decoded.charAt(0);
            }
        }
        for (int c = 0; c < 0x10000; c++) {
            if (map[c] >= 0 && b2c[map[c]] == 0xFFFF) {
                b2c[map[c]] = c;
            }
        }
        StringBuilder line = new StringBuilder("b2c ");
        for (int b = 0; b < 256; b++) {
            line.append(String.format("%04x", b2c[b]));
        }
        out.println(line);
        StringBuilder extra = new StringBuilder("extra");
        int extras = 0;
        for (int c = 0; c < 0x10000; c++) {
            if (map[c] >= 0 && b2c[map[c]] != c) {
                extra.append(String.format(" %04x:%02x", c, map[c]));
                extras++;
            }
        }
        out.println(extras == 0 ? "extra -" : extra.toString());
    }

    static String hex(byte[] bytes) {
        StringBuilder s = new StringBuilder();
        for (byte b : bytes) {
            s.append(String.format("%02x", b & 0xFF));
        }
        return s.toString();
    }

    static void fail(Charset cs, String why) {
        System.err.println(cs.name() + ": " + why);
        System.exit(1);
    }
}
