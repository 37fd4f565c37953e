package streamlab.conformance;

/** A window's count, as the lab's table sink stores it (window end exclusive). */
public class Result {
    public long windowStart;
    public long windowEnd;
    public String key;
    public long value;

    public Result() {}

    Result(long windowStart, long windowEnd, String key, long value) {
        this.windowStart = windowStart;
        this.windowEnd = windowEnd;
        this.key = key;
        this.value = value;
    }

    String id() {
        return windowStart + "|" + key;
    }
}
