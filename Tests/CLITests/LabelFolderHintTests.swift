import Foundation
import Imaging
import Testing

/// `wardrobe label coat FOLDER`: a folder names no image, and the error now gives the pipe
/// that labels the images imported from it (it said only "not found"); that pipe, run as
/// given, labels them.
@Suite struct LabelFolderHintTests {
    @Test func labelGivenAFolderPointsAtThePipeThatDoesIt() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        for index in 0..<3 {
            try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(index)), to: "photos/jackets/\(index).png")
        }
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(5)), to: "photos/else.png")
        let db = folder.path("c.sqlite")
        _ = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", folder.path("photos")])

        let refused = try WardrobeProcess.run(["label", "--db", db, "coat", folder.path("photos/jackets")],
                                              currentDirectory: folder.root)
        #expect(refused.status == 1, "\(refused.stderr)")
        let pipe = "wardrobe list --path '\(folder.path("photos/jackets"))/' --ids | wardrobe label coat -"
        #expect(refused.stderr == "error: \(folder.path("photos/jackets")) is a folder, not an image; "
                + "to label the images imported from it: \(pipe)\n", "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")

        // Relative, as typed: the pipe names it whole. --confirm says so too.
        let relative = try WardrobeProcess.run(["label", "--db", db, "--confirm", "photos/jackets"], currentDirectory: folder.root)
        #expect(relative.stderr.contains("wardrobe list --path '\(folder.path("photos/jackets"))/' --ids | wardrobe label --confirm -"),
                "\(relative.stderr)")

        // The pipe does what it says, and to nothing else.
        let script = pipe.replacingOccurrences(of: "wardrobe ", with: "'\(WardrobeProcess.executable.path)' --db '\(db)' ")
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", script]
        shell.standardOutput = FileHandle.nullDevice
        try shell.run()
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0)
        let corrected = try WardrobeProcess.run(["list", "--db", db, "--corrected", "--label", "coat", "--csv"])
        let paths = corrected.stdout.split(separator: "\n").dropFirst()
        #expect(paths.count == 3 && paths.allSatisfy { $0.contains("/photos/jackets/") }, "\(corrected.stdout)")
    }
}
