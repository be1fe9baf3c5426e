import Catalogue
import CatalogueFixtures
import Foundation
import Testing

/// Several processes opening one new catalogue at once: each must see either nothing
/// or a whole catalogue, never another's migration half done (which once made an
/// opener refuse the file as "an SQLite database of another program").
@Suite(.serialized) struct ConcurrentOpeningTests {
    @Test(arguments: [2, 8])
    func processesCreatingOneCatalogueAtOnceAllSucceed(processes: Int) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wardrobe-open-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bench = try CrashSafetyTests.benchExecutable()
        for round in 0..<8 {
            let db = folder.appendingPathComponent("round-\(round).sqlite").path
            for outcome in try SimultaneousProcesses.run(bench, ["open", "--db", db], count: processes) {
                #expect(outcome.status == 0, "round \(round): \(outcome.stderr)")
            }
            let catalogue = try Catalogue(path: db, mode: .readOnly)
            #expect(try catalogue.version == Migrator.embedded.latestVersion)
            #expect(try catalogue.integrityCheck() == ["ok"])
        }
    }

    /// SQLite makes and deletes a -journal beside a catalogue as it is set up. An opener
    /// that saw such a file and then found it gone took it for a symbolic link to nothing,
    /// and one of several processes creating a catalogue at once failed now and then.
    /// Here a thread makes and deletes the file as fast as it can while the catalogue is
    /// opened again and again: every opening must succeed.
    @Test func aCompanionFileDeletedWhileItIsLookedAtIsNotALinkToNothing() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wardrobe-open-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("catalogue.sqlite").path
        _ = try Catalogue(path: db)
        let churn = FileChurn(path: db + "-journal")
        churn.start()
        defer { churn.stop() }
        var refusals: [String] = []
        for _ in 0..<400 {
            do { _ = try Catalogue(path: db, mode: .readOnly) } catch { refusals.append("\(error)") }
        }
        #expect(churn.rounds > 0)
        #expect(refusals.count == 0, "openings refused, the first: \(refusals.first ?? "")")
    }
}

/// A thread that makes and deletes one empty regular file in a loop until stopped.
private final class FileChurn: @unchecked Sendable {
    let path: String
    private let lock = NSLock()
    private var stopping = false
    private var finished = false
    private var count = 0
    private let done = NSCondition()

    init(path: String) { self.path = path }

    var rounds: Int { lock.withLock { count } }

    func start() {
        Thread.detachNewThread { [self] in
            while !lock.withLock({ stopping }) {
                let descriptor = open(path, O_CREAT | O_WRONLY, 0o644)
                if descriptor >= 0 { close(descriptor) }
                unlink(path)
                lock.withLock { count += 1 }
            }
            done.withLock { finished = true; done.signal() }
        }
    }

    func stop() {
        lock.withLock { stopping = true }
        done.withLock { while !finished { done.wait() } }
    }
}
