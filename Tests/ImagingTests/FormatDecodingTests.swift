import Foundation
import Imaging
import Testing

/// HEIF, AVIF and WebP as phones and browsers save them, from Fixtures/formats (made by
/// `make fixtures` with heif-enc, cwebp and img2webp): sniffed by content, gray, alpha over
/// white, 10-bit reduced to 8, the first frame of an animation, embedded thumbnails and
/// scaled decoding, and one clear line for each bad file.
@Suite struct FormatDecodingTests {
    static let folder = FileManager.default.currentDirectoryPath + "/Fixtures/formats"
    let decoder = ImageDecoder()

    static func fixture(_ name: String) throws -> [UInt8] { try ImageFile.read(folder + "/" + name) }

    func mean(_ bitmap: Bitmap, x: Range<Int>, y: Range<Int>) -> [Int] {
        let rgb = bitmap.rgb()
        var sums = [0, 0, 0]
        for row in y { for column in x { for c in 0..<3 { sums[c] += Int(rgb[column, row][rgb[column, row].startIndex + c]) } } }
        return sums.map { $0 / (x.count * y.count) }
    }

    func near(_ a: [Int], _ b: [Int], within tolerance: Int) -> Bool {
        zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
    }

    @Test func thisSystemDecodesHEIFAndAVIF() {
        #expect(ImageDecoder.missingDecoders.isEmpty, "\(ImageDecoder.missingDecoders)")
    }

    @Test func formatsAreSniffedByContentAndBrand() throws {
        #expect(ImageFormat.sniff(try Self.fixture("orientation/heic-1.heic")) == .heif)
        #expect(ImageFormat.sniff(try Self.fixture("orientation/avif-1.avif")) == .avif)
        #expect(ImageFormat.sniff(try Self.fixture("orientation/webp-1.webp")) == .webp)
        func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
            let brands = Array(major.utf8) + [0, 0, 0, 0] + compatible.flatMap { Array($0.utf8) }
            let size = 8 + brands.count
            return [0, 0, 0, UInt8(size)] + Array("ftyp".utf8) + brands + [0, 0, 0, 8] + Array("free".utf8)
        }
        #expect(ImageFormat.sniff(ftyp("mif1", ["mif1", "heic"])) == .heif)
        #expect(ImageFormat.sniff(ftyp("mif1", ["mif1", "miaf", "avif"])) == .avif)
        #expect(ImageFormat.sniff(ftyp("avis", ["avis", "msf1"])) == .avif)
        #expect(ImageFormat.sniff(ftyp("isom", ["isom", "mp41"])) == nil, "an MP4 video is not an image")
        #expect(ImageFormat.sniff(ftyp("qt  ", ["qt  "])) == nil)
        // The name never matters: a HEIC file called .jpg is a HEIF image.
        let decoded = try decoder.decode(try Self.fixture("orientation/heic-1.heic"))
        #expect(decoded.format == .heif)
    }

    @Test(arguments: ["gray.heic", "gray.avif", "gray.webp"])
    func grayImagesKeepTheirRamp(name: String) throws {
        let bitmap = try decoder.decode(try Self.fixture("features/" + name)).bitmap
        #expect(bitmap.width == 48 && bitmap.height == 32)
        // The source ramps from 0 at the left edge to 235 at the right, the same on every row.
        #expect(mean(bitmap, x: 0..<4, y: 8..<24)[0] < 30)
        #expect(mean(bitmap, x: 44..<48, y: 8..<24)[0] > 200)
        let middle = mean(bitmap, x: 22..<26, y: 8..<24)
        #expect(abs(middle[0] - middle[1]) <= 4 && abs(middle[1] - middle[2]) <= 4, "gray stays gray: \(middle)")
    }

    @Test(arguments: ["alpha.heic", "alpha.avif", "alpha-lossy.webp", "alpha-lossless.webp"])
    func alphaIsCompositedOverWhite(name: String) throws {
        let bitmap = try decoder.decode(try Self.fixture("features/" + name)).bitmap
        #expect(near(mean(bitmap, x: 4..<20, y: 4..<28), [220, 30, 30], within: 16), "opaque half stays red")
        #expect(near(mean(bitmap, x: 28..<44, y: 4..<28), [255, 255, 255], within: 6), "transparent half is white")
        let black = try ImageDecoder(background: [0, 0, 0]).decode(try Self.fixture("features/" + name)).bitmap
        #expect(near(mean(black, x: 28..<44, y: 4..<28), [0, 0, 0], within: 6), "over another background, that one")
    }

    @Test(arguments: ["ten-bit.heic", "ten-bit.avif"])
    func tenBitSamplesBecomeEightBitLevels(name: String) throws {
        let bitmap = try decoder.decode(try Self.fixture("features/" + name)).bitmap
        // Full scale on the left, 50% (0x8080 of 16 bits, 514 of 10) on the right.
        #expect(near(mean(bitmap, x: 2..<20, y: 4..<28), [255, 255, 255], within: 3))
        #expect(near(mean(bitmap, x: 28..<46, y: 4..<28), [128, 128, 128], within: 3))
    }

    @Test func anAnimationGivesItsFirstFrameAndSaysHowManyThereAre() throws {
        let decoded = try decoder.decode(try Self.fixture("features/animated.webp"))
        #expect(decoded.frameCount == 2)
        #expect(near(mean(decoded.bitmap, x: 0..<40, y: 0..<30), [220, 30, 30], within: 12), "the first frame is the red one")
        let processed = try ImageProcessor().process(bytes: try Self.fixture("features/animated.webp"),
                                                     recipe: try PrepRecipes.named("photo"))
        #expect(processed.formatSummary == "webp, first of 2 frames")
    }

    @Test func aHEIFFileWithSeveralImagesGivesItsPrimary() throws {
        let decoded = try decoder.decode(try Self.fixture("features/two-images.heic"))
        #expect(decoded.frameCount == 2)
        #expect(near(mean(decoded.bitmap, x: 0..<40, y: 0..<30), [220, 30, 30], within: 12))
    }

    @Test func anEmbeddedThumbnailServesWhenItIsLargeEnough() throws {
        let bytes = try Self.fixture("features/with-thumbnail.heic")
        let small = try decoder.decode(bytes, minimumSide: 256)
        #expect(small.scale == ScalingFactor(numerator: 320, denominator: 640), "the 320-pixel thumbnail")
        #expect(small.width == 640 && small.height == 480 && small.bitmap.width == 320 && small.bitmap.height == 240)
        let full = try decoder.decode(bytes, minimumSide: 400)
        #expect(full.scale == .one && full.bitmap.width == 640, "a thumbnail smaller than asked is not used")
        // Both show the same picture: the marker in the top-left quarter.
        #expect(near(mean(small.bitmap, x: 10..<70, y: 10..<50), [220, 30, 30], within: 24))
        #expect(near(mean(full.bitmap, x: 20..<140, y: 20..<100), [220, 30, 30], within: 24))
    }

    /// Both files store the picture upside down with a 180-degree `irot`; the thumbnail of one
    /// carries the same `irot`, the other's none (as a tool that turned only the primary leaves it).
    @Test(arguments: [("features/turned-thumbnail.heic", true), ("features/unturned-thumbnail.heic", false)])
    func anEmbeddedThumbnailServesOnlyWhenTurnedLikeTheImage(name: String, thumbnailServes: Bool) throws {
        let decoded = try decoder.decode(try Self.fixture(name), minimumSide: 256)
        #expect(decoded.width == 640 && decoded.height == 480)
        #expect(decoded.scale == (thumbnailServes ? ScalingFactor(numerator: 320, denominator: 640) : .one))
        // Upright either way: the marker in the top-left corner, the field in the bottom-right.
        let quarter = (x: decoded.bitmap.width / 4, y: decoded.bitmap.height / 4)
        #expect(near(mean(decoded.bitmap, x: quarter.x / 4..<quarter.x * 3 / 4, y: quarter.y / 4..<quarter.y * 3 / 4),
                     [220, 30, 30], within: 24))
        #expect(near(mean(decoded.bitmap, x: quarter.x * 3..<quarter.x * 4 - 4, y: quarter.y * 3..<quarter.y * 4 - 4),
                     [60, 110, 170], within: 24))
    }

    @Test func aLargeWebPIsDecodedStraightToTheSizeAsked() throws {
        let decoded = try decoder.decode(try Self.fixture("features/large.webp"), minimumSide: 256)
        #expect(decoded.width == 640 && decoded.height == 480)
        #expect(decoded.bitmap.width == 256 && decoded.bitmap.height == 192)
        #expect(decoded.scale == ScalingFactor(numerator: 256, denominator: 640))
        #expect(near(mean(decoded.bitmap, x: 8..<56, y: 8..<40), [220, 30, 30], within: 24))
    }

    @Test(arguments: [("bad/truncated.heic", ImagingError.Kind.truncated, "truncated HEIF"),
                      ("bad/truncated.avif", .truncated, "truncated AVIF"),
                      ("bad/truncated.webp", .truncated, "truncated WebP"),
                      ("bad/corrupt.heic", .corrupt, "corrupt HEIF"),
                      ("bad/corrupt.avif", .corrupt, "corrupt AVIF"),
                      ("bad/corrupt.webp", .corrupt, "corrupt WebP")])
    func badFilesGetOneClearLine(name: String, kind: ImagingError.Kind, text: String) throws {
        let path = Self.folder + "/" + name
        #expect {
            _ = try decoder.decode(contentsOf: path)
        } throws: { error in
            let error = error as? ImagingError
            return error?.kind == kind && error?.description.hasPrefix(path + ": " + text) == true
                && error?.description.contains("\n") == false
        }
    }

    @Test func limitsAreCheckedBeforeDecoding() throws {
        let strict = ImageDecoder(limits: ImageLimits(maxDimension: 100, maxPixels: 100_000))
        for name in ["features/with-thumbnail.heic", "features/large.webp"] {
            let bytes = try Self.fixture(name)
            do {
                _ = try strict.decode(bytes)
                Issue.record("\(name) passed a 100-pixel limit")
            } catch { #expect(error.kind == .tooLarge, "\(error)") }
        }
        let fewPixels = ImageDecoder(limits: ImageLimits(maxDimension: 1000, maxPixels: 100_000))
        let bytes = try Self.fixture("features/with-thumbnail.heic")
        do {
            _ = try fewPixels.decode(bytes, minimumSide: 256)
            Issue.record("a 640x480 HEIF passed a 100,000-pixel limit through its thumbnail")
        } catch {
            #expect(error.kind == .tooLarge && error.description.contains("heif image of 640x480"), "\(error)")
        }
    }
}
