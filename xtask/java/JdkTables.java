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
//   m <first> <bytes>,<bytes>,...: multi-byte, a run of consecutive code points that encode,
//     each one's bytes when it is encoded alone (a fresh encoder, `encode` and `flush`): the
//     mapping and, for a stateful charset, the switches into and out of its set
//   stateless|stateful: multi-byte, after the runs: whether the BMP in one string is written
//     as its chars' bytes one after the other
//   pair <base> <mark> <bytes>: multi-byte, two chars that encode together as `bytes`, not as
//     their two encodings one after the other (the JIS X 0213 composites)
//
// With the argument `only=<name>`, the one charset (for a run with a system property that
// changes it, such as -Djdk.charset.GB18030=2000).
//
// What is checked here: a single-byte charset writes one byte per char for every BMP char,
// every supplementary code point and every lone surrogate (shown by encoding them all in one
// string); a char that `canEncode` refuses is written as the replacement; a supplementary
// code point and a lone surrogate are written as the replacement. For a multi-byte charset
// that is stateless (its `getBytes` of every BMP char in one string is the chars' bytes one
// after the other), the same string is written as the run lines and the pairs say. Any other
// outcome fails (exit status 1, the reason on stderr).

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
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
        String only = args.length > 0 && args[0].startsWith("only=") ? args[0].substring(5) : null;
        for (Charset cs : Charset.availableCharsets().values()) {
            if (!cs.canEncode() || (only != null && !cs.name().equals(only))) {
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
            } else if (kind.equals("multi")) {
                multi(out, cs, all);
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

    /** The bytes of code point `c` encoded alone, or null where it does not encode. */
    static byte[] alone(CharsetEncoder encoder, ByteBuffer buffer, int c) {
        encoder.reset();
        buffer.clear();
        CharBuffer in = CharBuffer.wrap(Character.toChars(c));
        if (!encoder.encode(in, buffer, true).isUnderflow() || !encoder.flush(buffer).isUnderflow()) {
            return null;
        }
        buffer.flip();
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }

    /** Whether any code point of [from, to) encodes: all of them in one string, unmappable ones dropped. */
    static boolean anyEncodes(Charset cs, int from, int to) {
        StringBuilder s = new StringBuilder();
        for (int c = from; c < to; c++) {
            if (c < 0xD800 || c > 0xDFFF) {
                s.appendCodePoint(c);
            }
        }
        CharsetEncoder encoder = cs.newEncoder()
                .onUnmappableCharacter(CodingErrorAction.IGNORE)
                .onMalformedInput(CodingErrorAction.IGNORE);
        ByteBuffer buffer = ByteBuffer.allocate(8 * s.length() + 64);
        encoder.encode(CharBuffer.wrap(s), buffer, true);
        encoder.flush(buffer);
        return buffer.position() > 0;
    }

    static void multi(PrintStream out, Charset cs, String all) {
        CharsetEncoder encoder = cs.newEncoder()
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .onMalformedInput(CodingErrorAction.REPORT);
        ByteBuffer buffer = ByteBuffer.allocate(64);
        byte[][] bmp = new byte[0x10000][];
        StringBuilder line = new StringBuilder();
        for (int page = 0; page < 0x10000; page += 0x100) {
            if (!anyEncodes(cs, page, page + 0x100)) {
                flush(out, line);
                continue;
            }
            for (int c = page; c < page + 0x100; c++) {
                byte[] bytes = (c >= 0xD800 && c <= 0xDFFF) ? null : alone(encoder, buffer, c);
                bmp[c] = bytes;
                run(out, line, c, bytes);
            }
        }
        flush(out, line);
        // Stateless: every BMP char in one string is the chars' bytes one after the other.
        byte[] replacement = encoder.replacement();
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        for (int i = 0; i < all.length(); i++) {
            byte[] bytes = bmp[all.charAt(i)];
            expected.writeBytes(bytes == null ? replacement : bytes);
        }
        boolean stateless = Arrays.equals(all.getBytes(cs), expected.toByteArray());
        // The planes above the BMP: skipped where nothing encodes; in a stateless charset
        // that encodes every char of a plane in the longest bytes it has, cut from the plane
        // in one string; else char by char.
        int longest = (int) encoder.maxBytesPerChar();
        for (int plane = 0x10000; plane < 0x110000; plane += 0x10000) {
            if (!anyEncodes(cs, plane, plane + 0x10000)) {
                continue;
            }
            StringBuilder chars = new StringBuilder();
            for (int c = plane; c < plane + 0x10000; c++) {
                chars.appendCodePoint(c);
            }
            encoder.reset();
            byte[] whole = stateless && encoder.canEncode(chars) ? chars.toString().getBytes(cs) : null;
            for (int c = plane; c < plane + 0x10000; c++) {
                byte[] bytes;
                if (whole != null && whole.length == longest * 0x10000) {
                    int at = (c - plane) * longest;
                    bytes = Arrays.copyOfRange(whole, at, at + longest);
                } else {
                    bytes = alone(encoder, buffer, c);
                }
                run(out, line, c, bytes);
            }
            flush(out, line);
        }
        out.println(stateless ? "stateless" : "stateful");
        if (!stateless) {
            return;
        }
        // The pairs: every one- and two-byte sequence that decodes to two BMP chars which
        // encode together as that sequence, and every char that encodes followed by each
        // combining or modifier mark that encodes (all in one string per mark; a pair whose
        // bytes are not its chars' is then found char by char).
        java.util.TreeMap<Integer, byte[]> pairs = new java.util.TreeMap<>();
        for (int seq = 0; seq < 0x10000; seq++) {
            byte[] bytes = seq < 0x100 ? new byte[] {(byte) seq} : new byte[] {(byte) (seq >> 8), (byte) seq};
            String decoded = new String(bytes, cs);
            if (decoded.length() == 2 && !Character.isSurrogate(decoded.charAt(0))
                    && !Character.isSurrogate(decoded.charAt(1))
                    && Arrays.equals(decoded.getBytes(cs), bytes)) {
                byte[] first = bmp[decoded.charAt(0)];
                byte[] second = bmp[decoded.charAt(1)];
                ByteArrayOutputStream apart = new ByteArrayOutputStream();
                apart.writeBytes(first == null ? replacement : first);
                apart.writeBytes(second == null ? replacement : second);
                if (!Arrays.equals(apart.toByteArray(), bytes)) {
                    pairs.put((decoded.charAt(0) << 16) | decoded.charAt(1), bytes);
                }
            }
        }
        List<Character> bases = new ArrayList<>();
        List<Character> marks = new ArrayList<>();
        for (int c = 0; c < 0x10000; c++) {
            if (bmp[c] == null) {
                continue;
            }
            bases.add((char) c);
            switch (Character.getType(c)) {
                case Character.NON_SPACING_MARK, Character.COMBINING_SPACING_MARK,
                        Character.ENCLOSING_MARK, Character.MODIFIER_LETTER,
                        Character.MODIFIER_SYMBOL, Character.FORMAT -> marks.add((char) c);
                default -> { }
            }
        }
        // Every base where some code decodes to a pair (the charset composes); else every
        // 61st: a charset that decodes no code to two chars is not
        // expected to write two chars as one, and all bases times all marks of a charset that
        // maps the whole BMP is a quarter of a billion chars.
        if (pairs.isEmpty()) {
            List<Character> sample = new ArrayList<>();
            for (int i = 0; i < bases.size(); i += 61) {
                sample.add(bases.get(i));
            }
            bases = sample;
        }
        for (char mark : marks) {
            StringBuilder together = new StringBuilder();
            ByteArrayOutputStream apart = new ByteArrayOutputStream();
            for (char base : bases) {
                together.append(base).append(mark);
                apart.writeBytes(bmp[base]);
                apart.writeBytes(bmp[mark]);
            }
            if (Arrays.equals(together.toString().getBytes(cs), apart.toByteArray())) {
                continue;
            }
            for (char base : bases) {
                byte[] two = (String.valueOf(base) + mark).getBytes(cs);
                ByteArrayOutputStream one = new ByteArrayOutputStream();
                one.writeBytes(bmp[base]);
                one.writeBytes(bmp[mark]);
                if (!Arrays.equals(two, one.toByteArray())) {
                    pairs.put((base << 16) | mark, two);
                }
            }
        }
        for (var pair : pairs.entrySet()) {
            int key = pair.getKey();
            out.println(String.format("pair %x %x %s", key >>> 16, key & 0xFFFF, hex(pair.getValue())));
        }
    }

    /** Adds code point `c` and its bytes to the run in `line`; a char that does not encode (null) ends it. */
    static void run(PrintStream out, StringBuilder line, int c, byte[] bytes) {
        if (bytes == null) {
            flush(out, line);
        } else {
            line.append(line.length() == 0 ? "m " + Integer.toHexString(c) + " " : ",").append(hex(bytes));
        }
    }

    static void flush(PrintStream out, StringBuilder line) {
        if (line.length() > 0) {
            out.println(line);
            line.setLength(0);
        }
    }

    static final char[] DIGITS = "0123456789abcdef".toCharArray();

    /** The bytes in lower-case hex (by hand: String.format takes most of a dump's time). */
    static String hex(byte[] bytes) {
        char[] s = new char[2 * bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            s[2 * i] = DIGITS[(bytes[i] >> 4) & 0xF];
            s[2 * i + 1] = DIGITS[bytes[i] & 0xF];
        }
        return new String(s);
    }

    static void fail(Charset cs, String why) {
        System.err.println(cs.name() + ": " + why);
        System.exit(1);
    }
}
