// The JVM side of tests/jvm_peer.rs: connects to the port given, then exchanges records with
// DataOutputStream.writeUTF and DataInputStream.readUTF. Every text travels as a pair of
// records: the text itself, then its UTF-16 units as hex digits (four per unit), which both
// sides read without doubt. Run as `java UtfPeer.java PORT SEED` (source-file mode).
//
// 1. To the test, texts a Rust `String` holds (NULs, supplementary chars, long ones), then
//    texts with lone surrogates: a record with the count, then the pairs, for each part.
// 2. From the test: a count, then pairs; each text read must be the chars its hex names.
//    The reply is one record: "ok COUNT", or "mismatch INDEX: GOT_HEX WANT_HEX".

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.util.Random;

public final class UtfPeer {
    public static void main(String[] args) throws IOException {
        int port = Integer.parseInt(args[0]);
        Random rng = new Random(Long.parseLong(args[1]));
        try (Socket socket = new Socket("127.0.0.1", port)) {
            DataOutputStream out =
                new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
            DataInputStream in =
                new DataInputStream(new BufferedInputStream(socket.getInputStream()));
            for (boolean lone : new boolean[] {false, true}) {
                int count = 300;
                out.writeUTF(Integer.toString(count));
                for (int i = 0; i < count; i++) {
                    String text = randomText(rng, lone);
                    out.writeUTF(text);
                    out.writeUTF(hex(text));
                }
            }
            out.flush();

            int count = Integer.parseInt(in.readUTF());
            String reply = "ok " + count;
            for (int i = 0; i < count; i++) {
                String text = in.readUTF();
                String want = in.readUTF();
                if (reply.startsWith("ok") && !hex(text).equals(want)) {
                    reply = "mismatch " + i + ": " + hex(text) + " " + want;
                }
            }
            out.writeUTF(reply.length() > 60000 ? reply.substring(0, 60000) : reply);
            out.flush();
        }
    }

    // A random text: runs of ASCII, NUL, 2- and 3-byte chars and supplementary chars, and
    // with `lone` also lone surrogates; one in ten up to 16000 chars long (at most 48000
    // bytes of modified UTF-8, 64000 hex digits), the others up to 40.
    static String randomText(Random rng, boolean lone) {
        int len = rng.nextInt(10) == 0 ? rng.nextInt(16000) : rng.nextInt(40);
        StringBuilder text = new StringBuilder();
        while (text.length() < len) {
            switch (rng.nextInt(lone ? 7 : 6)) {
                case 0 -> text.append((char) (0x20 + rng.nextInt(0x5F)));
                case 1 -> text.append('\0');
                case 2 -> text.append((char) (0x80 + rng.nextInt(0x780)));
                case 3 -> text.append((char) (0x800 + rng.nextInt(0xD800 - 0x800)));
                case 4 -> text.append((char) (0xE000 + rng.nextInt(0x2000)));
                case 5 -> text.appendCodePoint(0x10000 + rng.nextInt(0x100000));
                default -> text.append((char) (0xD800 + rng.nextInt(0x800)));
            }
        }
        if (text.length() > len && len > 0 && Character.isHighSurrogate(text.charAt(len - 1))) {
            len -= 1; // do not cut a pair in two (its high half would be a lone surrogate)
        }
        text.setLength(len);
        return text.toString();
    }

    static String hex(String text) {
        StringBuilder hex = new StringBuilder(4 * text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            for (int shift = 12; shift >= 0; shift -= 4) {
                hex.append(Character.forDigit((c >> shift) & 0xF, 16));
            }
        }
        return hex.toString();
    }
}
