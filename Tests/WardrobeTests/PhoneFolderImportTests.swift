import Catalogue
import Foundation
import Imaging
import Testing
@testable import Wardrobe

/// A phone-style folder through a real import: HEIC with `irot` and EXIF, AVIF, WebP lossy and
/// lossless with alpha, an animated WebP, JPEG and PNG, plus the bad file of each format.
/// Every good file is classified once, every thumbnail is the right way up, every bad file is
/// one line naming it.
@Suite struct PhoneFolderImportTests {
    static let fixtures = FileManager.default.currentDirectoryPath + "/Fixtures/formats"

    /// A temporary folder with copies of the fixtures named here, and a catalogue beside it.
    struct Folder {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("wardrobe-phone-\(UUID().uuidString)")
        var photos: String { root.appendingPathComponent("DCIM").path }

        init(copying names: [String]) throws {
            try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
            for name in names {
                try FileManager.default.copyItem(atPath: PhoneFolderImportTests.fixtures + "/" + name,
                                                 toPath: photos + "/" + name.replacingOccurrences(of: "/", with: "-"))
            }
        }

        func remove() { try? FileManager.default.removeItem(at: root) }

        func importAll() throws -> (ImportReport, Catalogue) {
            let catalogue = try Catalogue(path: root.appendingPathComponent("catalogue.sqlite").path)
            let importer = Importer(catalogue: catalogue, classifier: try EngineFolder.classifier())
            let options = ImportOptions(paths: [photos], jobs: 2, recipe: try PrepRecipes.named("photo"))
            let report = try importer.run(options, plan: try importer.plan(options), progress: { _ in }, failure: { _ in })
            return (report, catalogue)
        }
    }

    static let orientationFiles = ["heic", "avif", "webp", "jpeg"].flatMap { format in
        (1...8).map { tag in "orientation/\(format)-\(tag).\(format == "jpeg" ? "jpg" : format)" }
    }

    /// Which corner of the thumbnail holds the red marker (the upright picture has it top
    /// left), and whether the thumbnail is landscape as the upright picture is.
    static func markerCorner(of thumbnail: [UInt8]) throws -> (corner: String, landscape: Bool) {
        let bitmap = try ImageDecoder().decode(thumbnail).bitmap.rgb()
        let w = bitmap.width, h = bitmap.height
        func redness(_ x: Int, _ y: Int) -> Int {
            let pixel = Array(bitmap[x, y])
            return Int(pixel[0]) - (Int(pixel[1]) + Int(pixel[2])) / 2
        }
        let corners = [("top-left", 2, 2), ("top-right", w - 3, 2), ("bottom-left", 2, h - 3), ("bottom-right", w - 3, h - 3)]
        let reddest = corners.max { redness($0.1, $0.2) < redness($1.1, $1.2) }!
        return (redness(reddest.1, reddest.2) > 100 ? reddest.0 : "none", w > h)
    }

    @Test func everyOrientationOfEveryFormatLandsUprightInTheStoredThumbnail() throws {
        let folder = try Folder(copying: Self.orientationFiles)
        defer { folder.remove() }
        let (report, catalogue) = try folder.importAll()
        #expect(report.newImages == Self.orientationFiles.count && report.failed.isEmpty, "\(report.failed)")
        for name in Self.orientationFiles {
            let path = folder.photos + "/" + name.replacingOccurrences(of: "/", with: "-")
            let image = try #require(try catalogue.image(path: path), "\(name) is in the catalogue")
            let thumbnail = try #require(try catalogue.thumbnail(of: image.id))
            let found = try Self.markerCorner(of: thumbnail)
            #expect(found.corner == "top-left" && found.landscape, "\(name): marker \(found.corner), landscape \(found.landscape)")
            #expect(image.width == 64 && image.height == 48, "\(name): \(image.width)x\(image.height) upright")
        }
    }

    @Test func aPhoneFolderImportsWithEveryFileClassifiedAndEveryBadFileNamed() throws {
        let good = ["orientation/heic-6.heic", "orientation/avif-8.avif", "orientation/webp-3.webp",
                    "features/alpha-lossy.webp", "features/alpha-lossless.webp", "features/animated.webp",
                    "features/ten-bit.heic", "features/with-thumbnail.heic", "orientation/jpeg-6.jpg"]
        let bad = ["bad/truncated.heic", "bad/truncated.avif", "bad/truncated.webp",
                   "bad/corrupt.heic", "bad/corrupt.avif", "bad/corrupt.webp"]
        let folder = try Folder(copying: good + bad)
        defer { folder.remove() }
        try ImageFile.write(try PNGEncoder().encode(Bitmap(width: 30, height: 40, filledWith: [200, 40, 40])),
                            to: folder.photos + "/screenshot.png")
        let (report, catalogue) = try folder.importAll()

        #expect(report.newImages == good.count + 1)
        #expect(try catalogue.countCurrentClassifications() == good.count + 1, "each classified once")
        #expect(Set(report.failed.map(\.path)) == Set(bad.map { folder.photos + "/" + $0.replacingOccurrences(of: "/", with: "-") }))
        for failure in report.failed {
            #expect(!failure.reason.contains("\n") && !failure.reason.isEmpty, "\(failure)")
        }
        let formats = try good.map { name -> String in
            try #require(try catalogue.image(path: folder.photos + "/" + name.replacingOccurrences(of: "/", with: "-"))).format
        }
        #expect(formats == ["heif", "avif", "webp", "webp", "webp", "webp, first of 2 frames", "heif", "heif", "jpeg"])
    }
}
