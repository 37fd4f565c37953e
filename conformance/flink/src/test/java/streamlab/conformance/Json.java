package streamlab.conformance;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** A small JSON writer for the results each scenario leaves for compare.py. */
final class Json {
    private Json() {}

    static void write(Path file, Object value) throws IOException {
        Files.createDirectories(file.getParent());
        StringBuilder b = new StringBuilder();
        append(b, value);
        b.append('\n');
        Files.writeString(file, b.toString(), StandardCharsets.UTF_8);
    }

    static void append(StringBuilder b, Object v) {
        if (v == null) {
            b.append("null");
        } else if (v instanceof String s) {
            b.append('"');
            for (char c : s.toCharArray()) {
                switch (c) {
                    case '"' -> b.append("\\\"");
                    case '\\' -> b.append("\\\\");
                    case '\n' -> b.append("\\n");
                    case '\r' -> b.append("\\r");
                    case '\t' -> b.append("\\t");
                    default -> {
                        if (c < 0x20) {
                            b.append(String.format("\\u%04x", (int) c));
                        } else {
                            b.append(c);
                        }
                    }
                }
            }
            b.append('"');
        } else if (v instanceof Number || v instanceof Boolean) {
            b.append(v);
        } else if (v instanceof Map<?, ?> m) {
            b.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!first) b.append(',');
                first = false;
                append(b, String.valueOf(e.getKey()));
                b.append(':');
                append(b, e.getValue());
            }
            b.append('}');
        } else if (v instanceof List<?> l) {
            b.append('[');
            for (int i = 0; i < l.size(); i++) {
                if (i > 0) b.append(',');
                append(b, l.get(i));
            }
            b.append(']');
        } else {
            append(b, v.toString());
        }
    }
}
