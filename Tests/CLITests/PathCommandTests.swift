import Catalogue
import Foundation
import Testing

/// Paths that follow the files: moved and deleted files marked missing,
/// `forget` leaving nothing behind, and a junk file reported once.
@Suite(.serialized) struct PathCommandTests {
    struct Listed: Decodable { var id: Int64; var path: String?; var path_state: String }
    struct Shown: Decodable {
        struct Path: Decodable { var path: String; var missing: Bool }
        var paths: [Path]
    }
    struct Imported: Decodable {
        var files_read: Int
        var known_failures: Int
        var missing: Int
        var failed: [[String: String]]
    }

    let folder: PhotoFolder
    var db: String { folder.path("catalogue.sqlite") }

    init() throws {
        folder = try PhotoFolder()
    }

    func run(_ arguments: [String]) throws -> WardrobeProcess.Result {
        try WardrobeProcess.run([arguments[0], "--db", db] + arguments.dropFirst())
    }

    func json<T: Decodable>(_ type: T.Type, _ arguments: [String]) throws -> T {
        let result = try run(arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return try JSONDecoder().decode(T.self, from: Data(result.stdout.utf8))
    }

    @Test func movedAndDeletedFilesAreMarkedAndForgetLeavesNothing() throws {
        defer { folder.remove() }
        let old = folder.root.appendingPathComponent("old")
        guard try RealPhotos.copy(perFolder: 1, to: old) > 0 else {
            print(RealPhotos.skipMessage)
            return
        }
        #expect(try run(["import", "--quiet", old.path]).status == 0)
        let first = try json([Listed].self, ["list", "--json", "--sort", "id"])

        // Move the folder, import the new place, prune: old paths missing, new ones listed.
        let new = folder.root.appendingPathComponent("new")
        try FileManager.default.moveItem(at: old, to: new)
        #expect(try run(["import", "--quiet", new.path]).status == 0)
        #expect(try run(["prune"]).status == 0)
        let moved = try json([Listed].self, ["list", "--json", "--sort", "id"])
        #expect(moved.map(\.id) == first.map(\.id))
        #expect(moved.allSatisfy { $0.path?.hasPrefix(new.path + "/") == true && $0.path_state == "present" })
        let shown = try json(Shown.self, ["show", "--json", String(first[0].id)])
        #expect(shown.paths.map(\.missing) == [false, true])
        #expect(shown.paths.last?.path == first[0].path)

        // Delete a file: the next import of its folder marks it missing, and nothing else.
        let deleted = try #require(moved.last?.path)
        try FileManager.default.removeItem(atPath: deleted)
        let again = try json(Imported.self, ["import", "--json", new.path])
        #expect(again.missing == 1 && again.files_read == 0)
        let gone = try json([Listed].self, ["list", "--json", "--missing"])
        #expect(gone.map(\.path) == [deleted] && gone.first?.path_state == "missing")
        #expect(try json([Listed].self, ["list", "--json", "--path", "new/"]).count == moved.count)

        // --drop-missing removes the records of gone paths; the images stay.
        #expect(try run(["prune", "--drop-missing"]).status == 0)
        let orphan = try #require(try json([Listed].self, ["list", "--json"]).first { $0.id == moved.last!.id })
        #expect(orphan.path == nil && orphan.path_state == "none")

        // forget: no row left anywhere, no thumbnail byte in the file or its log.
        let target = ImageID(first[1].id)
        let thumbnail = try #require(try Catalogue(path: db, mode: .readOnly).thumbnail(of: target))
        #expect(thumbnail.count > 2_048)
        #expect(try run(["label", "coat", String(target.rawValue)]).status == 0)
        let refused = try run(["forget", String(target.rawValue)])
        #expect(refused.status == 64, "not a terminal: --yes is needed")
        let forgotten = try run(["forget", "--yes", String(target.rawValue)])
        #expect(forgotten.status == 0, "\(forgotten.stderr)")
        let catalogue = try Catalogue(path: db, mode: .readOnly)
        for (table, column) in [("images", "id"), ("image_paths", "image_id"), ("classifications", "image_id"),
                                ("current_classifications", "image_id"), ("corrections", "image_id")] {
            #expect(try catalogue.database.scalarInt("SELECT count(*) FROM \(table) WHERE \(column) = :value", [":value": target]) == 0)
        }
        #expect(try catalogue.integrityCheck() == ["ok"])
        for file in [db, db + "-wal"] {
            let bytes = FileManager.default.contents(atPath: file) ?? Data()
            // Past the JPEG header, which every thumbnail shares: the image's own bytes.
            let found = stride(from: 1_024, to: thumbnail.count - 256, by: 256).contains {
                bytes.range(of: Data(thumbnail[$0..<$0 + 256])) != nil
            }
            #expect(!found, "thumbnail bytes left in \(file)")
        }
    }

    @Test func aJunkFileIsReadAndReportedOnce() throws {
        defer { folder.remove() }
        try folder.write(Array("not a photo at all".utf8), to: "junk/photo.jpg")
        let first = try run(["import", "--json", folder.path("junk")])
        #expect(first.status == 2)
        let second = try run(["import", folder.path("junk")])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.range(of: #"read\s+0"#, options: .regularExpression) != nil,
                "\(second.stdout)")
        #expect(second.stdout.range(of: #"known failures\s+1"#, options: .regularExpression) != nil, "\(second.stdout)")
        #expect(second.stderr.isEmpty, "a known failure is not reported again: \(second.stderr)")
        let report = try json(Imported.self, ["import", "--json", folder.path("junk")])
        #expect(report.files_read == 0 && report.known_failures == 1 && report.failed.isEmpty)
        let failures = try run(["failures"])
        #expect(failures.stdout.contains("photo.jpg") && failures.stdout.contains("not"))
        struct Stats: Decodable { var failures: Int }
        #expect(try json(Stats.self, ["stats", "--json"]).failures == 1)
        // Changed, it is read again.
        try folder.write(Array("still not a photo, but longer".utf8), to: "junk/photo.jpg")
        let changedRun = try run(["import", "--json", folder.path("junk")])
        #expect(changedRun.status == 2)
        let changed = try JSONDecoder().decode(Imported.self, from: Data(changedRun.stdout.utf8))
        #expect(changed.files_read == 1 && changed.failed.count == 1)

        // Deleted, prune drops it from the failures (it used to stay there for good).
        try FileManager.default.removeItem(atPath: folder.path("junk/photo.jpg"))
        struct Pruned: Decodable { var gone_failures: Int }
        #expect(try json(Pruned.self, ["prune", "--json"]).gone_failures == 1)
        #expect(try json(Stats.self, ["stats", "--json"]).failures == 0)
        #expect(!(try run(["failures"])).stdout.contains("photo.jpg"))
    }
}
