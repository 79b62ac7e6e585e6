// The JDK oracle of the `charset` sweep's Java-name table: every charset this JDK has, with
// its aliases.
//
// stdin: nothing. stdout: one line per charset of Charset.availableCharsets(), the canonical
// name, then a tab and its aliases() separated by commas (sorted), in UTF-8.

import java.io.PrintStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.TreeSet;

public class CharsetNames {
    public static void main(String[] args) {
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        for (Charset charset : Charset.availableCharsets().values()) {
            out.print(charset.name());
            out.print('\t');
            out.print(String.join(",", new TreeSet<>(charset.aliases())));
            out.print('\n');
        }
        out.flush();
    }
}
