import Catalogue
import Foundation
import Imaging
import Testing
@testable import Wardrobe

/// Symbolic links that lead nowhere (to nothing, or round in a loop) in an imported folder.
/// With no file to compare, they failed anew on every import: an unchanged folder exited 2 for
/// ever, naming them again each time, and their tries were counted one way for a loop and
/// another for a dangling link (whose failure was dropped as gone, then recorded anew). Now a
/// link that leads nowhere is known by the link itself (its own size and time) and its reason:
/// unchanged, it is a known failure like any other; changed, or its target changed, it is tried
/// again.
@Suite struct BrokenLinkFailureTests {
    @Test func aBrokenLinkIsAKnownFailureUntilItOrWhereItLeadsChanges() throws {
        let source = try EngineFolder(fashionImages: 1)
        defer { source.remove() }
        let files = FileManager.default
        let folder = source.path("images")
        let dangling = folder + "/dangling.png", loopA = folder + "/loop-a", loopB = folder + "/loop-b"
        try files.createSymbolicLink(atPath: dangling, withDestinationPath: source.path("nowhere.png"))
        try files.createSymbolicLink(atPath: loopA, withDestinationPath: "loop-b")
        try files.createSymbolicLink(atPath: loopB, withDestinationPath: "loop-a")
        try Data().write(to: URL(fileURLWithPath: folder + "/empty.png"))
        let catalogue = try source.catalogue()
        let importer = Importer(catalogue: catalogue, classifier: try EngineFolder.classifier())
        let options = ImportOptions(paths: [folder], jobs: 1, recipe: try PrepRecipes.named("fashion-mnist"))
        func importAgain() throws -> (plan: Importer.Plan, report: ImportReport) {
            let plan = try importer.plan(options)
            return (plan, try importer.run(options, plan: plan, shouldStop: { false }, progress: { _ in }, failure: { _ in }))
        }
        func failed(_ report: ImportReport) -> Set<String> { Set(report.failed.map(\.path)) }
        func tries() throws -> [String: Int] {
            Dictionary(uniqueKeysWithValues: try catalogue.failingFiles().map { ($0.path, $0.attempts) })
        }

        let first = try importAgain()
        #expect(failed(first.report) == [dangling, loopA, loopB, folder + "/empty.png"])
        for round in 2...3 {
            let (plan, report) = try importAgain()
            #expect(report.failed.isEmpty, "round \(round): \(report.failed)")
            #expect(plan.knownFailures.count == 4, "round \(round)")
            #expect(report.filesFound == 5, "round \(round): the photo, three links and the empty file")
        }
        #expect(try tries() == [dangling: 1, loopA: 1, loopB: 1, folder + "/empty.png": 1])
        // prune looks at failing files too: a link that is there is not gone, though its file is.
        _ = try PathLook.prune([], dropMissing: false, in: catalogue)
        #expect(try tries().count == 4)
        #expect(try importAgain().report.failed.isEmpty, "still known after prune")

        // The link made again, to the same place: a new link, tried again.
        try files.removeItem(atPath: dangling)
        try files.createSymbolicLink(atPath: dangling, withDestinationPath: source.path("nowhere.png"))
        #expect(failed(try importAgain().report) == [dangling])
        #expect(try tries()[dangling] == 2)
        // Where it leads made: the file is read, and fails no more.
        try files.copyItem(atPath: source.images[0], toPath: source.path("nowhere.png"))
        let found = try importAgain()
        #expect(found.report.failed.isEmpty && found.report.newPaths == 1, "\(found.report.failed)")
        #expect(try tries()[dangling] == nil)

        // loop-a unchanged, but it leads somewhere else now (loop-b to nothing): tried again,
        // failing for another reason.
        try files.removeItem(atPath: loopB)
        try files.createSymbolicLink(atPath: loopB, withDestinationPath: "gone")
        let reasons = try importAgain().report.failed
        #expect(Set(reasons.map(\.path)) == [loopA, loopB], "\(reasons)")
        #expect(reasons.allSatisfy { $0.reason.hasPrefix("a symbolic link to ") }, "\(reasons)")
    }
}
