import Foundation
import Imaging
import Testing

/// One decode holds at most `ImageLimits.maxDecoderBytes` (the largest image allowed, as
/// 8-bit RGB), counting what the decoder itself keeps, not only the pixels it hands over:
/// an image whose decoder would need more is refused from its headers with one line saying
/// how much and why. Small files once needed far more: a 2.3 MB progressive CMYK JPEG of
/// 32768x3051 took 820 MB to decode, a 780 KB 16-bit RGBA PNG of that size 720 MB.
/// The limits here are small (a budget of 3 bytes for each allowed pixel), so the images are.
@Suite struct DecoderMemoryTests {
    /// A reason, or nil when `bytes` decoded.
    static func refusal(_ decoder: ImageDecoder, _ bytes: [UInt8], minimumSide: Int? = 256) -> ImagingError? {
        do {
            _ = try decoder.decode(bytes, minimumSide: minimumSide)
            return nil
        } catch {
            return error
        }
    }

    static func budget(pixels: Int) -> ImageDecoder {
        ImageDecoder(limits: ImageLimits(maxDimension: 32_768, maxPixels: pixels))
    }

    // MARK: JPEG

    /// Inverted CMYK, as JPEG files store it.
    static func cmyk(width: Int, height: Int) -> [UInt8] {
        (0..<(width * height)).flatMap { i in [UInt8(i % 251), 200, UInt8(i % 13 * 19), 255] }
    }

    /// libjpeg holds every DCT coefficient of a progressive JPEG (2 bytes a sample of each
    /// component) whatever scale it outputs; a baseline JPEG it decodes a row of blocks at a time.
    @Test func aProgressiveJPEGCountsItsCoefficients() throws {
        let decoder = Self.budget(pixels: 1_000_000)   // 3 MB
        let samples = Self.cmyk(width: 1000, height: 1000)
        // Four components of 125x125 blocks of 128 bytes: 8 MB.
        let progressive = try JPEGEncoder(progressive: true, subsampling: .none).encode(cmyk: samples, width: 1000, height: 1000)
        let refused = try #require(Self.refusal(decoder, progressive))
        #expect(refused.kind == .tooLarge)
        // 9 MB with the pixels it outputs at 3/8 (375x375, CMYK and RGB).
        #expect(refused.reason.hasPrefix("progressive JPEG of 1000x1000 pixels needs ~9 MB to decode, over the 3 MB limit"),
                "\(refused)")
        let baseline = try JPEGEncoder(progressive: false, subsampling: .none).encode(cmyk: samples, width: 1000, height: 1000)
        #expect(Self.refusal(decoder, baseline) == nil)
        // One component of the same size: 2 MB of coefficients fit.
        let gray = try JPEGEncoder(progressive: true).encode(TestImages.gradient(width: 1000, height: 1000).grayscale())
        #expect(Self.refusal(decoder, gray) == nil)
    }

    /// A sequential JPEG whose first scan holds one component of three is also decoded
    /// through the whole image's coefficients (libjpeg's `has_multiple_scans`). The headers
    /// alone say so: the file is refused before TurboJPEG reads any of its data.
    @Test func aSequentialJPEGInSeveralScansCountsItsCoefficients() throws {
        func headers(scanComponents: Int) -> [UInt8] {
            let frame: [UInt8] = [0xFF, 0xC0, 0x00, 17, 8, 0x03, 0xE8, 0x03, 0xE8, 3,
                                  1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0]   // 1000x1000, three components 1x1
            let scan: [UInt8] = [0xFF, 0xDA, 0x00, UInt8(6 + 2 * scanComponents), UInt8(scanComponents)]
                + (1...scanComponents).flatMap { [UInt8($0), 0x00] } + [0, 63, 0]
            return [0xFF, 0xD8] + frame + scan + [UInt8](repeating: 0, count: 64) + [0xFF, 0xD9]
        }
        let decoder = Self.budget(pixels: 1_000_000)
        let separate = try #require(Self.refusal(decoder, headers(scanComponents: 1)))
        #expect(separate.kind == .tooLarge && separate.reason.contains("~6 MB"), "\(separate)")
        // Interleaved, the same frame is decoded a row of blocks at a time: what stops it is its missing tables.
        let interleaved = try #require(Self.refusal(decoder, headers(scanComponents: 3)))
        #expect(interleaved.kind != .tooLarge, "\(interleaved)")
    }

    // MARK: PNG

    /// libpng delivers a row at a time, which is composited and placed (for Adam7, a pass's
    /// row at its columns) straight into the bitmap: no whole image at 4 bytes a pixel (2 for
    /// gray and alpha) beside the bitmap, and no copy of it. The image is large enough for
    /// that extra byte a pixel to exceed what libpng itself may hold.
    @Test(arguments: [(PNGColorType.rgba, 8), (.rgba, 16), (.grayAlpha, 8), (.grayAlpha, 16), (.rgb, 16), (.gray, 16)],
          [false, true])
    func aPNGHoldsItsPixelsAndRows(colour: (type: PNGColorType, depth: Int), interlaced: Bool) throws {
        let width = 1600, height = 1200
        let limits = ImageLimits(maxDimension: 4096, maxPixels: 4_000_000)
        let count = width * height * colour.type.samplesPerPixel * colour.depth / 8
        let samples = (0..<count).map { UInt8(truncatingIfNeeded: $0 >> 12) }
        let png = try PNGEncoder(compressionLevel: 1).encode(samples: samples, width: width, height: height,
                                                             colorType: colour.type, bitDepth: colour.depth, interlaced: interlaced)
        var peak = 0
        let bitmap = try PNGCodec.decode(png, limits: limits, background: [255, 255, 255], peakBytes: &peak)
        let pixels = width * height * bitmap.channels
        let allowance = width * 8 * 2 + PNGCodec.libraryBudget(fileSize: png.count, limits: limits)
        #expect(bitmap.channels == (colour.type == .gray || colour.type == .grayAlpha ? 1 : 3))
        #expect(allowance < width * height)
        #expect(peak >= pixels)
        #expect(peak <= pixels + allowance, "held \(peak) bytes for \(pixels) bytes of pixels")
    }

    // MARK: HEIF and WebP

    static func fixture(_ name: String) throws -> [UInt8] {
        try FormatDecodingTests.fixture("features/" + name)
    }

    /// libheif decodes to planes, converts them to interleaved RGB (or RGBA, or 16 bits a
    /// sample beyond 8 bits), and that is copied into the bitmap: 6 bytes a pixel for 8-bit
    /// RGB, 8 with alpha, 12 for 10-bit. 48x32 images under a budget of 12,000 bytes.
    @Test func aHEIFImageCountsWhatLibheifHolds() throws {
        let decoder = Self.budget(pixels: 4_000)
        #expect(Self.refusal(decoder, try Self.fixture("gray.heic")) == nil)
        for name in ["alpha.heic", "ten-bit.heic", "alpha.avif", "ten-bit.avif"] {
            let refused = Self.refusal(decoder, try Self.fixture(name))
            #expect(refused?.kind == .tooLarge && refused?.reason.contains("48x32") == true, "\(name): \(String(describing: refused))")
        }
    }

    /// What is decoded counts: an embedded thumbnail, not the primary image it stands for.
    @Test func aHEIFThumbnailCountsItsOwnSize() throws {
        let decoder = Self.budget(pixels: 640 * 480)
        let file = try Self.fixture("with-thumbnail.heic")
        #expect(Self.refusal(decoder, file, minimumSide: 256) == nil)
        #expect(Self.refusal(decoder, file, minimumSide: nil)?.kind == .tooLarge)
    }

    /// A lossy WebP with alpha: libwebp keeps its alpha plane whole, and decodes it (a
    /// lossless bitstream) through a whole image of 32-bit ARGB.
    @Test func aLossyWebPWithAlphaCountsItsAlphaPlane() throws {
        let decoder = Self.budget(pixels: 2_000)
        #expect(Self.refusal(decoder, try Self.fixture("gray.webp"), minimumSide: nil) == nil)
        let refused = Self.refusal(decoder, try Self.fixture("alpha-lossy.webp"), minimumSide: nil)
        #expect(refused?.kind == .tooLarge, "\(String(describing: refused))")
    }
}
