package streamlab.conformance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One record of a source the lab dumped with --dump-source (a Flink POJO). */
public class Event {
    public long time;
    public String action;
    public String key;
    public long offset;

    public Event() {}

    private static final Pattern TIME = Pattern.compile("\"time\":(-?\\d+)");
    private static final Pattern ACTION = Pattern.compile("\"action\":\"([^\"]*)\"");
    private static final Pattern KEY = Pattern.compile("\"key\":\"([^\"]*)\"");
    private static final Pattern OFFSET = Pattern.compile("\"offset\":(\\d+)");

    /** Reads the JSON Lines the lab wrote, in offset order. */
    static List<Event> load(Path file) throws IOException {
        List<Event> out = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            if (line.isBlank()) continue;
            Event e = new Event();
            e.time = Long.parseLong(find(TIME, line));
            e.action = find(ACTION, line);
            e.key = find(KEY, line);
            e.offset = Long.parseLong(find(OFFSET, line));
            out.add(e);
        }
        return out;
    }

    private static String find(Pattern p, String line) {
        Matcher m = p.matcher(line);
        if (!m.find()) throw new IllegalArgumentException("no " + p + " in " + line);
        return m.group(1);
    }
}
