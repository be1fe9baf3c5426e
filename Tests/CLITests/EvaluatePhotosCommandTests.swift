import Foundation
import Imaging
import Testing
import Training

/// `wardrobe model evaluate --images DIR --map FILE` end to end, on folders of data-set images
/// written as PNG and JPEG files, with the bundled model.
@Suite struct EvaluatePhotosCommandTests {
    static let root = FileManager.default.currentDirectoryPath

    /// trousers/ (label 1) and boots/ (label 9), 12 images each; boots as JPEG.
    static func makeFolders(in directory: URL) throws {
        let test = try FashionMNIST(split: .test)
        for (folder, label) in [("trousers", 1), ("boots", 9)] {
            let path = directory.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
            for index in (0..<test.count).filter({ Int(test.labels[$0]) == label }).prefix(12) {
                let bitmap = Bitmap(width: 28, height: 28, channels: 1, pixels: Array(test.image(index)))
                let bytes = label == 9 ? try JPEGEncoder(quality: 95).encode(bitmap) : try PNGEncoder().encode(bitmap)
                try Data(bytes).write(to: path.appendingPathComponent("\(index).\(label == 9 ? "jpg" : "png")"))
            }
        }
        try Data("trousers: Trouser\nboots: Ankle boot, Sneaker\n".utf8).write(to: directory.appendingPathComponent("kinds.map"))
    }

    /// Photos that all fail are named, each in one line, and the evaluation is an error: it
    /// printed 'mapped accuracy 0.000 (0 of 0)' with status 0, for --json too.
    @Test(arguments: [[], ["--json"]])
    func photosThatAllFailAreAnErrorNotAScoreOfNothing(json: [String]) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.write(Array("a shopping list\n".utf8), to: "photos/trousers/a.jpg")
        try folder.write(Array("trousers: Trouser\n".utf8), to: "kinds.map")
        let result = try WardrobeProcess.run(["model", "evaluate", "--images", folder.path("photos"),
                                              "--map", folder.path("kinds.map")] + json)
        #expect(result.status == 1 && result.stdout.isEmpty, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr == "warning: \(folder.path("photos"))/trousers/a.jpg: not an image: content is not JPEG, "
                + "PNG, HEIF, AVIF or WebP\nerror: none of the 1 photos of the mapped folders in \(folder.path("photos")) "
                + "could be scored; each is named above\n", "\(result.stderr)")
    }

    /// A mapped folder none of whose photos could be scored was 'accuracy 0.000', as if each
    /// were wrong; it is '-' (null in --json). '1 photos' takes its number.
    @Test func aFolderOfNoScoredPhotoHasNoAccuracy() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try Self.makeFolders(in: URL(fileURLWithPath: folder.path("photos")))
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path("photos/trousers")).sorted().dropFirst() {
            try FileManager.default.removeItem(atPath: folder.path("photos/trousers/\(name)"))
        }
        try FileManager.default.removeItem(atPath: folder.path("photos/boots"))
        try folder.write(Array("a shopping list\n".utf8), to: "photos/boots/a.jpg")
        let arguments = ["model", "evaluate", "--images", folder.path("photos"), "--map", folder.path("photos/kinds.map")]
        let text = try WardrobeProcess.run(arguments)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains(": 1 photo in 2 mapped folders"), "\(text.stdout)")
        let boots = text.stdout.split(separator: "\n").first { $0.hasPrefix("boots ") }
        #expect(boots.map { $0.split(separator: " ").prefix(4).map(String.init) } == ["boots", "0", "0", "-"],
                "\(text.stdout)")
        let json = try WardrobeProcess.run(arguments + ["--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let folders = try #require((report["recipes"] as? [[String: Any]])?.first?["folders"] as? [[String: Any]])
        #expect(folders.first { $0["folder"] as? String == "boots" }?["accuracy"] is NSNull, "\(folders)")
        #expect(folders.first { $0["folder"] as? String == "trousers" }?["accuracy"] is Double, "\(folders)")
    }

    @Test func printsMappedAndPerFolderAccuracyAndConfusionForEveryRecipe() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("eval-photos-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.makeFolders(in: directory)
        let map = directory.appendingPathComponent("kinds.map").path

        let result = try WardrobeProcess.run(["model", "evaluate", "--images", directory.path, "--map", map, "--recipe", "all"],
                                             currentDirectory: URL(fileURLWithPath: Self.root))
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("24 photos in 2 mapped folders"))
        #expect(result.stdout.contains("recipe photo@4: mapped accuracy "))
        #expect(result.stdout.contains("recipe fashion-mnist@1: mapped accuracy "))
        #expect(result.stdout.contains("confusion (rows: folder, columns: predicted label)"))
        let folderRows = result.stdout.split(separator: "\n").filter { $0.hasPrefix("trousers ") || $0.hasPrefix("boots ") }
        #expect(folderRows.count == 8, "a score row and a confusion row per folder and recipe")

        let json = try WardrobeProcess.run(["model", "evaluate", "--images", directory.path, "--map", map, "--json"],
                                           currentDirectory: URL(fileURLWithPath: Self.root))
        #expect(json.status == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let recipes = try #require(report["recipes"] as? [[String: Any]])
        #expect(recipes.count == 1 && recipes[0]["recipe"] as? String == "photo@4")
        #expect(recipes[0]["photos"] as? Int == 24)
        // Data-set images are what the model knows: nearly all right.
        #expect((recipes[0]["mapped_accuracy"] as? Double ?? 0) >= 0.9)
    }

    @Test func wrongCombinationsAreUsageErrors() throws {
        let missingMap = try WardrobeProcess.run(["model", "evaluate", "--images", "/tmp"])
        #expect(missingMap.status == 64 && missingMap.stderr.contains("--images needs --map FILE"))
        let mapAlone = try WardrobeProcess.run(["model", "evaluate", "--map", "x.map"])
        #expect(mapAlone.status == 64 && mapAlone.stderr.contains("--map needs --images"))
        let mixed = try WardrobeProcess.run(["model", "evaluate", "--images", "/tmp", "--map", "x.map", "--limit", "5"])
        #expect(mixed.status == 64)
        let badMap = try WardrobeProcess.run(["model", "evaluate", "--images", "/tmp", "--map", "/nonexistent.map"],
                                             currentDirectory: URL(fileURLWithPath: Self.root))
        #expect(badMap.status == 1 && badMap.stderr.contains("map /nonexistent.map: cannot read"))
    }
}
