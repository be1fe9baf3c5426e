import Foundation

/// How much decoding of photos' own files for larger views (`/original`) goes on at once:
/// at most `views` views, and at most `pixels` pixels of photo being decoded in all (a view
/// costs its photo's stored pixels). A request that finds no room waits up to `patience`
/// seconds for some, then is told to come back (503 with Retry-After). Each view decodes its
/// whole photo: a 100-megapixel PNG of 320 KB took 1.4 s and 600 MB, eight at once held
/// every worker for 10 to 15 s and 1.15 GB, and requests queued behind them were dropped at
/// the request deadline. The views wait; the pages, which decode nothing, do not.
public final class ViewBudget: @unchecked Sendable {
    /// Pixels being decoded at once, in all: a photo larger than this is decoded alone.
    public let pixels: Int
    /// Views being made at once, whatever their size.
    public let views: Int
    /// Seconds a view waits for room before it is refused.
    public let patience: Double

    /// Guards `inUse`, and is signalled when a view is done.
    private let condition = NSCondition()
    private var inUse = (views: 0, pixels: 0)

    /// By default two views at once, and one photo of import's largest size (100 megapixels).
    public init(pixels: Int = 100_000_000, views: Int = 2, patience: Double = 0.25) {
        precondition(pixels > 0 && views > 0, "a budget has room for one view")
        self.pixels = pixels
        self.views = views
        self.patience = patience
    }

    /// `make()`, once there is room for decoding `cost` pixels; nil when none was made within
    /// `patience`. A cost above the budget counts as all of it.
    public func admit<Made>(cost: Int, _ make: () throws -> Made) rethrows -> Made? {
        let cost = min(max(cost, 1), pixels)
        let deadline = Date().addingTimeInterval(patience)
        condition.lock()
        while inUse.views >= views || inUse.pixels + cost > pixels {
            if !condition.wait(until: deadline), inUse.views >= views || inUse.pixels + cost > pixels {
                condition.unlock()
                return nil
            }
        }
        inUse.views += 1
        inUse.pixels += cost
        condition.unlock()
        defer {
            condition.lock()
            inUse.views -= 1
            inUse.pixels -= cost
            condition.broadcast()
            condition.unlock()
        }
        return try make()
    }
}
