import Imaging
import Testing

/// One small PNG per colour type and bit depth, written by the project's own encoder with
/// known samples, decoded back to 8-bit gray or RGB.
@Suite struct PNGDecodingTests {
    let decoder = ImageDecoder()
    let encoder = PNGEncoder()

    @Test(arguments: [false, true])
    func eightBitGrayAndRGBRoundTripExactly(interlaced: Bool) throws {
        let rgb = TestImages.gradient(width: 37, height: 23)
        let gray = rgb.grayscale()
        for bitmap in [rgb, gray] {
            let png = try encoder.encode(samples: bitmap.pixels, width: bitmap.width, height: bitmap.height,
                                         colorType: bitmap.isGray ? .gray : .rgb, bitDepth: 8, interlaced: interlaced)
            let decoded = try decoder.decode(png)
            #expect(decoded.format == .png)
            #expect(decoded.bitmap == bitmap)
        }
    }

    @Test(arguments: [(1, [0, 1], [0, 255]), (2, [0, 1, 2, 3], [0, 85, 170, 255]), (4, [0, 3, 15], [0, 51, 255])])
    func lowBitDepthGrayIsExpanded(depth: Int, samples: [UInt8], expected: [UInt8]) throws {
        let png = try encoder.encode(samples: samples, width: samples.count, height: 1, colorType: .gray, bitDepth: depth)
        #expect(try decoder.decode(png).bitmap.pixels == expected)
    }

    @Test func sixteenBitSamplesAreScaledWithRounding() throws {
        // Big-endian 16-bit: 0x0000, 0x8080, 0xFFFF, 0x0081 (129 * 255 / 65535 = 0.5 -> 1).
        let gray: [UInt8] = [0x00, 0x00, 0x80, 0x80, 0xFF, 0xFF, 0x00, 0x81]
        let grayPNG = try encoder.encode(samples: gray, width: 4, height: 1, colorType: .gray, bitDepth: 16)
        #expect(try decoder.decode(grayPNG).bitmap.pixels == [0, 128, 255, 1])
        let rgb: [UInt8] = [0xFF, 0xFF, 0x00, 0x00, 0x80, 0x80]
        let rgbPNG = try encoder.encode(samples: rgb, width: 1, height: 1, colorType: .rgb, bitDepth: 16, interlaced: true)
        #expect(try decoder.decode(rgbPNG).bitmap.pixels == [255, 0, 128])
        let rgba: [UInt8] = [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]   // transparent black
        let rgbaPNG = try encoder.encode(samples: rgba, width: 1, height: 1, colorType: .rgba, bitDepth: 16)
        #expect(try decoder.decode(rgbaPNG).bitmap.pixels == [255, 255, 255])
    }

    @Test func grayAlphaIsCompositedOverWhite() throws {
        // (gray, alpha): opaque black, transparent black, half-transparent black, opaque 100.
        let samples: [UInt8] = [0, 255, 0, 0, 0, 128, 100, 255]
        let png = try encoder.encode(samples: samples, width: 4, height: 1, colorType: .grayAlpha, bitDepth: 8)
        let decoded = try decoder.decode(png).bitmap
        #expect(decoded.channels == 1)
        #expect(decoded.pixels == [0, 255, 127, 100])
    }

    @Test func rgbaIsCompositedOverTheStatedBackground() throws {
        let samples: [UInt8] = [10, 20, 30, 255, 10, 20, 30, 0, 200, 100, 0, 51]
        let png = try encoder.encode(samples: samples, width: 3, height: 1, colorType: .rgba, bitDepth: 8, interlaced: true)
        #expect(try decoder.decode(png).bitmap.pixels == [10, 20, 30, 255, 255, 255, 244, 224, 204])
        let onBlue = ImageDecoder(background: [0, 0, 255])
        #expect(try onBlue.decode(png).bitmap.pixels == [10, 20, 30, 0, 0, 255, 40, 20, 204])
    }

    @Test(arguments: [1, 2, 4, 8])
    func palettesExpandWithTheirTransparency(depth: Int) throws {
        let palette: [UInt8] = [255, 0, 0, 0, 255, 0]   // red, green
        let alpha: [UInt8] = [255, 0]                     // green is transparent
        let png = try encoder.encode(samples: [0, 1, 1, 0], width: 2, height: 2, colorType: .palette, bitDepth: depth,
                                     palette: palette, paletteAlpha: alpha)
        let decoded = try decoder.decode(png).bitmap
        #expect(decoded.channels == 3)
        #expect(decoded.pixels == [255, 0, 0, 255, 255, 255, 255, 255, 255, 255, 0, 0])
    }

    @Test func bitmapEncoderWritesGrayAndRGB() throws {
        let rgb = TestImages.gradient(width: 9, height: 5)
        #expect(try decoder.decode(try encoder.encode(rgb)).bitmap == rgb)
        #expect(try decoder.decode(try encoder.encode(rgb.grayscale())).bitmap == rgb.grayscale())
    }
}
