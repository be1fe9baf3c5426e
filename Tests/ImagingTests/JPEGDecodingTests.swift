import Imaging
import Testing

@Suite struct JPEGDecodingTests {
    let decoder = ImageDecoder()

    func meanDifference(_ a: Bitmap, _ b: Bitmap) -> Double {
        Double(TestImages.distance(a.pixels, b.pixels)) / Double(a.pixels.count)
    }

    @Test(arguments: [false, true])
    func decodesColourBaselineAndProgressive(progressive: Bool) throws {
        let original = TestImages.gradient(width: 64, height: 48)
        let jpeg = try JPEGEncoder(quality: 95, progressive: progressive).encode(original)
        let decoded = try decoder.decode(jpeg)
        #expect(decoded.format == .jpeg)
        #expect(decoded.bitmap.width == 64 && decoded.bitmap.height == 48 && decoded.bitmap.channels == 3)
        #expect(decoded.scale == .one)
        #expect(meanDifference(decoded.bitmap, original) < 3)
    }

    @Test func progressiveFilesReallyAreProgressive() throws {
        let bitmap = TestImages.gradient(width: 32, height: 32)
        let progressive = try JPEGEncoder(progressive: true).encode(bitmap)
        let baseline = try JPEGEncoder(progressive: false).encode(bitmap)
        // SOF2 marks a progressive frame, SOF0 a baseline one.
        #expect(containsMarker(progressive, 0xC2) && !containsMarker(progressive, 0xC0))
        #expect(containsMarker(baseline, 0xC0) && !containsMarker(baseline, 0xC2))
    }

    private func containsMarker(_ bytes: [UInt8], _ marker: UInt8) -> Bool {
        zip(bytes, bytes.dropFirst()).contains { $0 == 0xFF && $1 == marker }
    }

    @Test func decodesGrayscaleToOneChannel() throws {
        let gray = TestImages.gradient(width: 40, height: 24).grayscale()
        let decoded = try decoder.decode(try JPEGEncoder(quality: 95).encode(gray))
        #expect(decoded.bitmap.channels == 1)
        #expect(meanDifference(decoded.bitmap, gray) < 2)
    }

    @Test func decodesCMYKToRGB() throws {
        // Inverted CMYK as JPEG stores it: 255 = no ink. Left half red (no cyan, full magenta
        // and yellow), right half blue (full cyan and magenta, no yellow), no black anywhere.
        let width = 32, height = 16
        var cmyk = [UInt8]()
        for _ in 0..<height {
            for x in 0..<width {
                cmyk += x < width / 2 ? [255, 0, 0, 255] : [0, 0, 255, 255]
            }
        }
        let jpeg = try JPEGEncoder(quality: 95, subsampling: .none).encode(cmyk: cmyk, width: width, height: height)
        let decoded = try decoder.decode(jpeg).bitmap
        #expect(decoded.channels == 3)
        #expect(TestImages.distance(decoded[4, 8], [255, 0, 0]) < 30)
        #expect(TestImages.distance(decoded[28, 8], [0, 0, 255]) < 30)
    }

    @Test func twelveMegapixelPhotoDecodesAtOneEighth() throws {
        let large = TestImages.gradient(width: 4000, height: 3000)
        let jpeg = try JPEGEncoder(quality: 80).encode(large)
        let decoded = try decoder.decode(jpeg, minimumSide: 256)
        #expect(decoded.scale == ScalingFactor(numerator: 1, denominator: 8))
        #expect(decoded.bitmap.width == 500 && decoded.bitmap.height == 375)
        #expect(decoded.width == 4000 && decoded.height == 3000)
        // The reduced image still shows the same picture: the ramps end where they should.
        #expect(TestImages.distance(decoded.bitmap[0, 0], large[0, 0]) < 12)
        #expect(TestImages.distance(decoded.bitmap[499, 374], large[3999, 2999]) < 12)
    }

    @Test(arguments: [
        (400, 533, 256, 1, 2, 200, 267),   // the validation photos: 1/2 keeps 267 >= 256
        (2000, 1500, 256, 1, 4, 500, 375),  // 1/8 would give 250 < 256
        (300, 200, 256, 7, 8, 263, 175),    // 7/8 is the smallest step still >= 256
        (200, 100, 256, 1, 1, 200, 100),    // smaller than needed: never enlarged
    ])
    func picksTheSmallestSufficientScale(width: Int, height: Int, side: Int, numerator: Int, denominator: Int,
                                         scaledWidth: Int, scaledHeight: Int) throws {
        let jpeg = try JPEGEncoder().encode(TestImages.gradient(width: width, height: height))
        let decoded = try decoder.decode(jpeg, minimumSide: side)
        #expect(decoded.scale == ScalingFactor(numerator: numerator, denominator: denominator))
        #expect(decoded.bitmap.width == scaledWidth && decoded.bitmap.height == scaledHeight)
    }
}
