import Catalogue
import Dispatch
import Foundation
import Imaging
import Testing
@testable import Wardrobe
import Server

/// Larger views are made within a budget (`ViewBudget`): a few at once and so many pixels of
/// photo decoded in all; a view that finds no room waits briefly, then gets 503 with
/// Retry-After, and the pages go on. Each `/original` of a 100-megapixel PNG took 1.4 s and
/// 600 MB, and eight at once held every worker for 10 to 15 s (1.15 GB; some dropped).
@Suite(.serialized) struct ServerViewBudgetTests {
    /// What `admit` gave: the view made, or nil when there was no room.
    static func made(_ admission: ViewBudget.Admission<Int>) -> Int? {
        if case .made(let value) = admission { return value }
        return nil
    }

    /// A view of `cost` pixels being made on another thread until `release`; `ended` waits
    /// for that thread to be done.
    static func hold(_ budget: ViewBudget, cost: Int) -> (release: @Sendable () -> Void, ended: () -> Void) {
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        Thread {
            _ = budget.admit(cost: cost) { holding.signal(); release.wait() }
            done.signal()
        }.start()
        holding.wait()
        return ({ release.signal() }, { done.wait() })
    }

    static func retryAfter(_ admission: ViewBudget.Admission<Int>) -> Int? {
        if case .full(let seconds) = admission { return seconds }
        return nil
    }

    @Test func aViewWaitsBrieflyForRoomThenIsRefused() {
        let budget = ViewBudget(pixels: 100, views: 2, pixelsPerSecond: 1e9, patience: 0.2)
        let held = Self.hold(budget, cost: 80)
        #expect(Self.made(budget.admit(cost: 30) { 1 }) == nil, "80 + 30 pixels at once is over the budget")
        #expect(Self.made(budget.admit(cost: 20) { 1 }) == 1, "80 + 20 is within it")
        #expect(Self.retryAfter(budget.admit(cost: 1_000) { 1 }) == 2, "more than the budget counts as all of it")
        // Room made while it waits: a photo larger than the budget is then decoded alone.
        let release = held.release
        Thread { Thread.sleep(forTimeInterval: 0.05); release() }.start()
        #expect(Self.made(budget.admit(cost: 1_000) { 2 }) == 2)
        held.ended()
    }

    @Test func noMoreViewsAtOnceThanItsCount() {
        let budget = ViewBudget(pixels: 1_000, views: 1, pixelsPerSecond: 1e9, patience: 0.05)
        let held = Self.hold(budget, cost: 1)
        #expect(Self.made(budget.admit(cost: 1) { 1 }) == nil)
        held.release()
        held.ended()
        #expect(Self.made(budget.admit(cost: 1) { 1 }) == 1)
    }

    /// Over time, no more pixels a second than its rate: views made one after another (as the
    /// library makes those queued on one thread) are refused once the bucket is spent, told
    /// when it holds enough again, and made then.
    @Test func noMorePixelsASecondThanItsRate() {
        let budget = ViewBudget(pixels: 100, views: 2, pixelsPerSecond: 100, patience: 0)
        #expect(Self.made(budget.admit(cost: 100) { 1 }) == 1, "the bucket starts full")
        let refused = budget.admit(cost: 60) { 1 }
        #expect(Self.retryAfter(refused) == 1, "60 pixels at 100 a second: under a second")
        Thread.sleep(forTimeInterval: 0.7)
        #expect(Self.made(budget.admit(cost: 60) { 2 }) == 2)
        // Waiting is worth it when the bucket fills within the patience.
        let patient = ViewBudget(pixels: 100, views: 2, pixelsPerSecond: 100, patience: 1)
        _ = patient.admit(cost: 100) { 0 }
        #expect(Self.made(patient.admit(cost: 30) { 3 }) == 3)
    }

    /// A catalogue of one large PNG (36 megapixels of 6000x6000, a small file), served with a
    /// budget of one view at a time, no patience and 40 megapixels: while the budget is held
    /// (another view being made), a view gets 503 with Retry-After and a page is answered;
    /// once it is free, the view is made.
    @Test func aLargeViewBeyondTheBudgetGets503AndPagesGoOn() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("wardrobe-budget-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let side = 6_000
        let samples = (0..<side * side).map { UInt8(truncatingIfNeeded: ($0 % side) / 16) }
        let file = root.appendingPathComponent("large.png").path
        try ImageFile.write(try PNGEncoder().encode(Bitmap(width: side, height: side, channels: 1, pixels: samples)), to: file)
        let path = root.appendingPathComponent("catalogue.sqlite").path
        let classifier = try ClothingClassifier(modelAt: FileManager.default.currentDirectoryPath + "/Models/clothing.aimodel")
        let importer = Importer(catalogue: try Catalogue(path: path), classifier: classifier)
        let options = ImportOptions(paths: [file], jobs: 1, recipe: PrepRecipes.default)
        _ = try importer.run(options, plan: try importer.plan(options), progress: { _ in }, failure: { _ in })

        let setup = WardrobeSetup(environment: [:], executable: URL(
            fileURLWithPath: FileManager.default.currentDirectoryPath + "/.build/release/wardrobe"))
        let budget = ViewBudget(pixels: 40_000_000, views: 1, pixelsPerSecond: 1e12, patience: 0)
        let site = WardrobeSite(catalogue: try setup.openCatalogue(explicit: path, mode: .readOnly, sharedByThreads: true),
                                boundHost: "127.0.0.1", readOnly: true, viewBudget: budget)
        let server = try HTTPServer(host: "127.0.0.1", port: 0, handler: site)
        defer { server.stop() }
        let client = RawHTTP(port: server.port)
        #expect(try client.get("/original/1?w=1600").status == 200, "one view alone is made")

        // Another view is being made: the budget is held (by a photo of 1 pixel: views count too).
        let held = Self.hold(budget, cost: 1)
        let refused = try client.get("/original/1?w=1600")
        #expect(refused.status == 503)
        #expect(refused.header("retry-after") == "2")
        #expect(refused.text.contains("Busy: as many larger views are being made as the server makes for now"), "\(refused.text)")
        #expect(try client.get("/stats").status == 200, "the pages go on")
        held.release()
        held.ended()
        #expect(try client.get("/original/1?w=1600").status == 200, "made once there is room")
    }
}
