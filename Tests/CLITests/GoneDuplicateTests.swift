import Foundation
import Testing

/// A copy of a photo deleted after its import: `duplicates` and `similar` named its path as
/// they name a file that is there, where `list` says "(missing)". Someone choosing which
/// copy to delete went to a file that was gone. Each path now says so, as `list` does
/// (`path_state` in their JSON, as in `list` and `export`).
@Suite struct GoneDuplicateTests {
    @Test func aGoneCopyIsSaidToBeMissing() throws {
        let folder = try DuplicatePhotos.folder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite"), photos = folder.path("photos"), small = folder.path("photos/shirt-small.jpg")
        #expect(try WardrobeProcess.run(["import", "--db", db, "--quiet", photos]).status == 0)
        try FileManager.default.removeItem(atPath: small)
        #expect(try WardrobeProcess.run(["import", "--db", db, "--quiet", photos]).status == 0)

        let duplicates = try WardrobeProcess.run(["duplicates", "--db", db])
        #expect(duplicates.stdout.contains("\(small) (missing)\n"), "\(duplicates.stdout)")
        #expect(duplicates.stdout.contains("\(folder.path("photos/shirt.jpg"))\n"), "\(duplicates.stdout)")
        let json = try WardrobeProcess.run(["duplicates", "--db", db, "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let members = try #require(((report["groups"] as? [[String: Any]])?.first?["images"]) as? [[String: Any]])
        let states = Dictionary(uniqueKeysWithValues: members.map { ($0["path"] as? String ?? "", $0["path_state"] as? String ?? "") })
        #expect(states[small] == "missing" && states[folder.path("photos/shirt.jpg")] == "present", "\(json.stdout)")

        let similar = try WardrobeProcess.run(["similar", "--db", db, folder.path("photos/shirt.jpg")])
        #expect(similar.stdout.contains("\(small) (missing)\n"), "\(similar.stdout)")
        let similarJSON = try WardrobeProcess.run(["similar", "--db", db, "--json", folder.path("photos/shirt.jpg")])
        let near = try #require(try JSONSerialization.jsonObject(with: Data(similarJSON.stdout.utf8)) as? [String: Any])
        #expect(near["path_state"] as? String == "present", "\(similarJSON.stdout)")
        let neighbours = try #require(near["neighbours"] as? [[String: Any]])
        #expect(neighbours.first { $0["path"] as? String == small }?["path_state"] as? String == "missing", "\(similarJSON.stdout)")
    }
}
