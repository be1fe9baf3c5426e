import Foundation
import Testing

/// `prune PATH` of a path under which nothing is known (a typo, a folder never imported)
/// looked at nothing and said only "checked 0 known paths looked at", status 0: the prune
/// a person asked for did not happen and nothing said so. Each such path is named with the
/// reason; the other paths are pruned as before.
@Suite struct PruneUnknownPathTests {
    @Test func aPathWithNothingKnownUnderItIsNamed() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.writePhotos(2, width: 120, height: 160, firstSeed: 21)
        let db = folder.path("c.sqlite"), photos = folder.path("photos")
        #expect(try WardrobeProcess.run(["import", "-q", "--db", db, photos]).status == 0)
        try FileManager.default.removeItem(atPath: folder.path("photos/1.jpg"))

        let typo = folder.path("photoz")
        let pruned = try WardrobeProcess.run(["prune", "--db", db, typo, photos])
        #expect(pruned.status == 0, "\(pruned.stderr)")
        #expect(pruned.stderr.contains("warning: \(typo): no known path is there or under it; nothing was looked at there\n"),
                "\(pruned.stderr)")
        #expect(!pruned.stderr.contains(photos + ":"), "\(pruned.stderr)")
        #expect(pruned.stdout.contains("checked  2") && pruned.stdout.contains("missing  1"), "\(pruned.stdout)")
        let json = try WardrobeProcess.run(["prune", "--db", db, "--json", typo])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(report["unknown_paths"] as? [String] == [typo], "\(json.stdout)")
    }
}
