import Foundation
import Imaging
import Testing

/// A known photo whose name now holds something that is no photo file: a folder, a pipe,
/// a symbolic link to nothing. The photo is gone, so `import` of its folder and `prune`
/// mark the path missing; they took the folder (anything `lstat` found) for the file,
/// still there, and `prune` called a missing path whose name became a folder "back".
@Suite(.serialized) struct ReplacedFileTests {
    struct Listed: Decodable { var id: Int64; var path: String?; var path_state: String }
    struct Pruned: Decodable { var missing: Int; var back: Int }

    @Test func aPhotoReplacedByAFolderAPipeOrADanglingLinkIsMissing() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let names = ["x.png", "pipe.png", "link.png", "kept.png"]
        for (index, name) in names.enumerated() {
            try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(index)), to: "photos/\(name)")
        }
        let db = folder.path("c.sqlite")
        let run = { (arguments: [String]) in try WardrobeProcess.run([arguments[0], "--db", db] + arguments.dropFirst()) }
        #expect(try run(["import", "--quiet", "--prep", "fashion-mnist", folder.path("photos")]).status == 0)

        let files = FileManager.default
        try files.removeItem(atPath: folder.path("photos/x.png"))
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(9)), to: "photos/x.png/inside.png")
        try files.removeItem(atPath: folder.path("photos/pipe.png"))
        #expect(mkfifo(folder.path("photos/pipe.png"), 0o600) == 0)
        try files.removeItem(atPath: folder.path("photos/link.png"))
        try files.createSymbolicLink(atPath: folder.path("photos/link.png"), withDestinationPath: folder.path("nowhere.png"))

        let again = try run(["import", "--quiet", "--prep", "fashion-mnist", folder.path("photos")])
        #expect(again.status == 2, "the dangling link fails: \(again.stderr)")
        let listed = try JSONDecoder().decode([Listed].self, from: Data(try run(["list", "--json", "--sort", "id"]).stdout.utf8))
        let state = Dictionary(uniqueKeysWithValues: listed.compactMap { row in
            row.path.map { (URL(fileURLWithPath: $0).lastPathComponent, row.path_state) }
        })
        #expect(state["x.png"] == "missing", "\(listed)")
        #expect(state["pipe.png"] == "missing", "\(listed)")
        #expect(state["kept.png"] == "present" && state["inside.png"] == "present", "\(listed)")

        // prune looks at every known path the same way: nothing comes back.
        let pruned = try JSONDecoder().decode(Pruned.self, from: Data(try run(["prune", "--json"]).stdout.utf8))
        #expect(pruned.back == 0 && pruned.missing == 3, "\(pruned)")
    }
}
