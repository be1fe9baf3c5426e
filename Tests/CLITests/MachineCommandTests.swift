import Foundation
import Testing
import Imaging

/// Two machines over one folder and one catalogue (`WARDROBE_MACHINE`): each judges only the
/// paths it saw, and what another machine saw is shown with that machine's name.
@Suite struct MachineCommandTests {
    struct Listed: Decodable { var id: Int64; var path: String?; var path_state: String }
    struct Shown: Decodable {
        struct Path: Decodable { var path: String; var missing: Bool }
        var paths: [Path]
    }

    /// A name no host has (too long, a control character, the `:` shown between a machine and
    /// its path) is refused in one line before the catalogue is opened; nothing is written.
    /// So is one with an invisible character (a zero-width space, a direction override), which
    /// was recorded: it looked like another machine's name and its paths were judged apart.
    @Test(arguments: [String(repeating: "m", count: 256), "evil\u{1B}[31m", "two\nlines", "host:1", "ho\u{200B}st",
                      "rtl\u{202E}x"])
    func aMachineNameNoHostHasIsRefused(machine: String) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = folder.path("catalogue.sqlite")
        let result = try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.root.path],
                                             environment: ["WARDROBE_MACHINE": machine])
        #expect(result.status != 0)
        #expect(result.stderr.contains("WARDROBE_MACHINE") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db))
        let fine = try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.root.path],
                                           environment: ["WARDROBE_MACHINE": "  " + String(repeating: "m", count: 255) + " "])
        #expect(fine.status == 0, "\(fine.stderr)")
    }

    /// A byte that is not UTF-8 in the name is refused too: it was read as U+FFFD, and that
    /// name, which is no host's, was recorded with every path.
    @Test func aMachineNameThatIsNotUTF8IsRefused() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = folder.path("catalogue.sqlite")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "WARDROBE_MACHINE=\"$(printf 'host\\377')\" \"$0\" import --db \"$1\" --quiet \"$2\"",
                             WardrobeProcess.executable.path, db, folder.root.path]
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1 && stderr.contains("WARDROBE_MACHINE"), "\(stderr)")
        #expect(!FileManager.default.fileExists(atPath: db))
    }

    @Test func twoMachineNamesOverOneFolderKeepSeparatePathStates() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let photos = folder.root.appendingPathComponent("photos")
        guard try RealPhotos.copy(perFolder: 1, to: photos) > 0 else {
            print(RealPhotos.skipMessage)
            return
        }
        let db = folder.path("catalogue.sqlite")
        func run(_ machine: String, _ arguments: [String]) throws -> WardrobeProcess.Result {
            let result = try WardrobeProcess.run([arguments[0], "--db", db] + arguments.dropFirst(),
                                                 environment: ["WARDROBE_MACHINE": machine])
            #expect(result.status == 0, "\(machine) \(arguments): \(result.stderr)")
            return result
        }
        func listed(_ machine: String) throws -> [Listed] {
            try JSONDecoder().decode([Listed].self, from: Data(try run(machine, ["list", "--json", "--sort", "id"]).stdout.utf8))
        }
        _ = try run("alpha", ["import", "--quiet", photos.path])
        // One photo in each folder of the validation set.
        let files = try FileManager.default.subpathsOfDirectory(atPath: photos.path).filter { $0.contains("/") }.sorted()
        // Alpha's paths, seen from beta, name alpha.
        let fromBeta = try listed("beta")
        #expect(fromBeta.count == files.count)
        #expect(fromBeta.allSatisfy { $0.path?.hasPrefix("alpha:" + photos.path + "/") == true })
        #expect(try listed("alpha").allSatisfy { $0.path?.hasPrefix(photos.path + "/") == true })

        // Beta imports the same folder: nothing new is stored, beta has paths of its own.
        let imported = try JSONSerialization.jsonObject(with: Data(try run("beta", ["import", "--json", photos.path]).stdout.utf8))
        let report = try #require(imported as? [String: Any])
        #expect(report["new_images"] as? Int == 0 && report["new_paths"] as? Int == files.count, "\(report)")
        // Each machine lists its own path of a file both have, though beta saw it last: alpha's
        // list named beta's path ('beta:/...'), as if the file were not on alpha.
        #expect(try listed("alpha").allSatisfy { $0.path?.hasPrefix(photos.path + "/") == true })
        #expect(try listed("beta").allSatisfy { $0.path?.hasPrefix(photos.path + "/") == true })
        // So do the reports that name an image's path beside it (similar, duplicates).
        let first = String(try #require(try listed("alpha").first).id)
        let similar = try JSONSerialization.jsonObject(with: Data(try run("alpha", ["similar", "--json", first]).stdout.utf8))
        let neighbours = try #require((similar as? [String: Any])?["neighbours"] as? [[String: Any]])
        #expect(!neighbours.isEmpty && neighbours.allSatisfy { ($0["path"] as? String)?.hasPrefix(photos.path + "/") == true },
                "\(neighbours.map { $0["path"] ?? "-" })")
        // A file gone on beta's side: beta's prune marks beta's path, alpha's stays present.
        let gone = photos.appendingPathComponent(files[0]).path
        try FileManager.default.removeItem(atPath: gone)
        _ = try run("beta", ["prune"])
        // The best path is the most recently seen existing one, of whichever machine: beta's gone,
        // alpha's is shown to beta with alpha's name.
        let id = String(try #require(try listed("beta").first { $0.path == "alpha:" + gone }).id)
        let shown = try JSONDecoder().decode(Shown.self, from: Data(try run("alpha", ["show", "--json", id]).stdout.utf8))
        #expect(Set(shown.paths.map { "\($0.path) \($0.missing)" }) == ["\(gone) false", "beta:\(gone) true"])
        // Alpha's own prune now finds its file gone too; beta's record is not judged twice.
        _ = try run("alpha", ["prune"])
        let again = try JSONDecoder().decode(Shown.self, from: Data(try run("beta", ["show", "--json", id]).stdout.utf8))
        #expect(Set(again.paths.map { "\($0.path) \($0.missing)" }) == ["alpha:\(gone) true", "\(gone) true"])
        #expect(try listed("beta").first { String($0.id) == id }?.path_state == "missing")
    }
    /// A file that fails to import is recorded with the machine it failed on, as its paths
    /// are: keyed by path alone, a file stored fine under the same path on another machine
    /// took the first machine's failure away, and another machine's `prune`, not finding the
    /// file, dropped it. Each machine's `failures` shows another's as `machine:path`.
    @Test func aFailureIsTheMachinesItFailedOn() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path("photos"), withIntermediateDirectories: true)
        let bad = folder.path("photos/bad.jpg"), gone = folder.path("photos/gone.jpg")
        for path in [bad, gone] { try folder.write(Array("not a photo".utf8), to: "photos/" + URL(fileURLWithPath: path).lastPathComponent) }
        let db = folder.path("catalogue.sqlite")
        func run(_ machine: String, _ arguments: [String]) throws -> WardrobeProcess.Result {
            try WardrobeProcess.run([arguments[0], "--db", db] + arguments.dropFirst(), environment: ["WARDROBE_MACHINE": machine])
        }
        func failing(_ machine: String) throws -> Set<String> {
            let rows = try JSONSerialization.jsonObject(with: Data(try run(machine, ["failures", "--json"]).stdout.utf8))
            return Set((rows as? [[String: Any]] ?? []).compactMap { $0["path"] as? String })
        }
        #expect(try run("alpha", ["import", "--quiet", folder.path("photos")]).status == 2)
        #expect(try failing("alpha") == [bad, gone])

        // On beta the same path holds a photo, stored fine; the other path is gone before beta looks.
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(3)), to: "photos/bad.jpg")
        try FileManager.default.removeItem(atPath: gone)
        #expect(try run("beta", ["import", "--quiet", folder.path("photos")]).status == 0)
        #expect(try run("beta", ["prune"]).status == 0)
        #expect(try failing("alpha") == [bad, gone], "alpha's failures are alpha's to end")
        #expect(try failing("beta") == ["alpha:" + bad, "alpha:" + gone])

        // Alpha's own look ends them: its import stores the photo, its prune finds the other gone.
        #expect(try run("alpha", ["import", "--quiet", folder.path("photos")]).status == 0)
        #expect(try run("alpha", ["prune"]).status == 0)
        #expect(try failing("alpha").isEmpty)
    }
}
