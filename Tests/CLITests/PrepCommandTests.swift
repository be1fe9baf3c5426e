import Foundation
import Imaging
import Testing

@Suite struct PrepCommandTests {
    static let root = FileManager.default.currentDirectoryPath

    @Test func showsTheTensorAndWritesThePNGAndThumbnail() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wardrobe-prep-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("tensor.png").path
        let thumbnail = directory.appendingPathComponent("thumb.jpg").path
        let result = try WardrobeProcess.run(["prep", Self.root + "/Fixtures/fashion-sample.png", "--recipe", "fashion-mnist",
                                              "--out", out, "--thumbnail", thumbnail])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0].hasSuffix("fashion-sample.png: png 28x28"))
        #expect(lines[1] == "recipe fashion-mnist@1, crop box 28x28 at (0, 0)")
        // Not a terminal: 14 lines of plain shading, no escape codes.
        #expect(lines[2..<16].allSatisfy { $0.count == 28 })
        #expect(!result.stdout.contains("\u{1B}"))
        let png = try ImageDecoder().decode(try ImageFile.read(out)).bitmap
        #expect(png.width == 280 && png.height == 280)
        let sample = try ImageDecoder().decode(try ImageFile.read(Self.root + "/Fixtures/fashion-sample.png")).bitmap
        #expect(png[5, 5] == sample[0, 0] && png[275, 145] == sample[27, 14])
        // A 28x28 image keeps a lossless thumbnail (ImageProcessor.losslessThumbnailSide).
        #expect(try ImageDecoder().decode(try ImageFile.read(thumbnail)).format == .png)
    }

    /// `--out` and `--thumbnail` naming one file, by the same path written two ways or
    /// through a link: the thumbnail used to replace the tensor just written.
    @Test func outAndThumbnailNamingOneFileAreRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wardrobe-prep-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("both.png").path
        try Data([1]).write(to: URL(fileURLWithPath: out))
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("link.png").path,
                                                   withDestinationPath: out)
        for other in [directory.path + "/./both.png", directory.appendingPathComponent("link.png").path] {
            let result = try WardrobeProcess.run(["prep", Self.root + "/Fixtures/fashion-sample.png", "--out", out,
                                                  "--thumbnail", other])
            #expect(result.status == 64, "\(other): \(result.stderr)")
            #expect(result.stderr.hasPrefix("error: --out and --thumbnail name the same file"), "\(result.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data([1]), "nothing is written")
        }
    }

    @Test func exifRotatedSampleIsShownUpright() throws {
        let result = try WardrobeProcess.run(["prep", Self.root + "/Fixtures/samples/test-4-shirt-exif-rotated.jpg"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix(Self.root + "/Fixtures/samples/test-4-shirt-exif-rotated.jpg: jpeg 112x112, EXIF orientation 6"))
        #expect(result.stdout.contains("recipe photo@4"))
    }

    @Test func junkAndUnknownRecipesFailWithOneLine() throws {
        let junk = try WardrobeProcess.run(["prep", Self.root + "/Fixtures/samples/not-a-photo.jpg"])
        #expect(junk.status == 1)
        #expect(junk.stderr == "error: \(Self.root)/Fixtures/samples/not-a-photo.jpg: not an image: content is not JPEG, PNG, HEIF, AVIF or WebP\n")
        let recipe = try WardrobeProcess.run(["prep", Self.root + "/Fixtures/fashion-sample.png", "--recipe", "sepia"])
        #expect(recipe.status == 64, "an unknown recipe is wrong usage")
        #expect(recipe.stderr.contains("unknown prep recipe 'sepia'"))
        let usage = try WardrobeProcess.run(["prep"])
        #expect(usage.status == 64)
    }
}
