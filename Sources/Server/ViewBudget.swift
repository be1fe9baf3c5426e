import Foundation

/// How much decoding of photos' own files for larger views (`/original`) the server does: at
/// most `views` views at once, at most `pixels` pixels of photo being decoded at once (a view
/// costs its photo's stored pixels), and, over time, no more than `pixelsPerSecond` (a bucket
/// of `pixels` that fills at that rate). A request that finds no room waits up to `patience`
/// seconds for some, then is told when to come back (503 with Retry-After).
///
/// Each view decodes its whole photo: a 100-megapixel PNG of 320 KB took 1.4 s and 600 MB,
/// eight at once held every worker for 10 to 15 s and 1.15 GB, and requests queued behind
/// them were dropped at the request deadline. At once, the views' memory is bounded; over
/// time, their CPU: the library gives each connection to one thread, so views queued on the
/// thread making one were each made in turn, and a page queued among them waited for all.
public final class ViewBudget: @unchecked Sendable {
    /// What `admit` did: made the view, or found no room (and when to ask again).
    public enum Admission<Made> {
        case made(Made)
        case full(retryAfterSeconds: Int)
    }

    /// Pixels being decoded at once, in all: a photo larger than this is decoded alone.
    public let pixels: Int
    /// Views being made at once, whatever their size.
    public let views: Int
    /// Pixels decoded a second, over time.
    public let pixelsPerSecond: Double
    /// Seconds a view waits for room before it is refused.
    public let patience: Double

    /// Guards the counts below, and is signalled when a view is done.
    private let condition = NSCondition()
    private var inUse = (views: 0, pixels: 0)
    /// The bucket: pixels that may still be decoded now, as of `filledAt`.
    private var allowance: Double
    private var filledAt = Date()

    /// By default two views at once, one photo of import's largest size (100 megapixels) at
    /// once, and 50 megapixels a second (a large PNG decodes at about 70 a second here: one
    /// core is never all the views').
    public init(pixels: Int = 100_000_000, views: Int = 2, pixelsPerSecond: Double = 50_000_000, patience: Double = 0.25) {
        precondition(pixels > 0 && views > 0 && pixelsPerSecond > 0, "a budget has room for one view")
        self.pixels = pixels
        self.views = views
        self.pixelsPerSecond = pixelsPerSecond
        self.patience = patience
        allowance = Double(pixels)
    }

    /// `make()`, once there is room for decoding `cost` pixels (a cost above `pixels` counts
    /// as all of it), or `.full` when there was none within `patience`. A view that the
    /// bucket could not hold within the patience is refused at once: waiting would only hold
    /// its thread, and every connection that thread has.
    public func admit<Made>(cost: Int, _ make: () throws -> Made) rethrows -> Admission<Made> {
        let cost = min(max(cost, 1), pixels)
        let deadline = Date().addingTimeInterval(patience)
        condition.lock()
        while true {
            let now = Date()
            allowance = min(Double(pixels), allowance + now.timeIntervalSince(filledAt) * pixelsPerSecond)
            filledAt = now
            let fill = max(0, (Double(cost) - allowance) / pixelsPerSecond)
            let busy = inUse.views >= views || inUse.pixels + cost > pixels
            if fill == 0 && !busy { break }
            let left = deadline.timeIntervalSince(now)
            if fill > left || (busy && left <= 0) {
                condition.unlock()
                // A view under way is said as the time a large one takes.
                return .full(retryAfterSeconds: max(1, Int(max(fill, busy ? 2 : 0).rounded(.up))))
            }
            // Until a view ends (it signals), or until the bucket holds enough.
            _ = condition.wait(until: busy ? deadline : now.addingTimeInterval(fill))
        }
        inUse.views += 1
        inUse.pixels += cost
        allowance -= Double(cost)
        condition.unlock()
        defer {
            condition.lock()
            inUse.views -= 1
            inUse.pixels -= cost
            condition.broadcast()
            condition.unlock()
        }
        return .made(try make())
    }
}
