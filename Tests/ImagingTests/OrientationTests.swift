import Imaging
import Testing

/// Each EXIF orientation: the test stores the upright picture the way a camera would for
/// that tag (worked out here independently of the module), and checks that decoding puts
/// every quadrant back where it belongs.
@Suite struct OrientationTests {
    /// Upright picture: 64 wide, 32 tall, quadrants red, green / blue, yellow.
    static let uprightWidth = 64, uprightHeight = 32

    /// Where upright pixel (x, y) is kept in the stored image for each tag, and the stored size.
    static func storedPosition(of x: Int, _ y: Int, tag: Int) -> (x: Int, y: Int) {
        let w = uprightWidth, h = uprightHeight
        switch tag {
        case 1: return (x, y)
        case 2: return (w - 1 - x, y)                 // stored mirrored
        case 3: return (w - 1 - x, h - 1 - y)         // stored upside down
        case 4: return (x, h - 1 - y)                 // stored flipped top to bottom
        case 5: return (y, x)                         // stored transposed
        case 6: return (y, w - 1 - x)                 // stored turned 90 degrees counter-clockwise
        case 7: return (h - 1 - y, w - 1 - x)         // stored transversed
        default: return (h - 1 - y, x)                // 8: stored turned 90 degrees clockwise
        }
    }

    static func storedImage(tag: Int) -> Bitmap {
        let upright = TestImages.quadrants(width: uprightWidth, height: uprightHeight)
        let swaps = tag >= 5
        var stored = Bitmap(width: swaps ? uprightHeight : uprightWidth, height: swaps ? uprightWidth : uprightHeight,
                            filledWith: [0, 0, 0])
        for y in 0..<uprightHeight {
            for x in 0..<uprightWidth {
                let at = storedPosition(of: x, y, tag: tag)
                stored.set(x: at.x, y: at.y, to: Array(upright[x, y]))
            }
        }
        return stored
    }

    @Test(arguments: 1...8)
    func jpegOrientationIsApplied(tag: Int) throws {
        let orientation = try #require(Orientation(rawValue: tag))
        let jpeg = try JPEGEncoder(quality: 95, subsampling: .none, orientation: orientation).encode(Self.storedImage(tag: tag))
        let decoder = ImageDecoder()
        #expect(try decoder.header(of: jpeg).orientation == orientation)
        let decoded = try decoder.decode(jpeg)
        #expect(decoded.orientation == orientation)
        #expect(decoded.width == Self.uprightWidth && decoded.height == Self.uprightHeight)
        let bitmap = decoded.bitmap
        #expect(bitmap.width == Self.uprightWidth && bitmap.height == Self.uprightHeight)
        let centres = [(16, 8), (48, 8), (16, 24), (48, 24)]
        for (index, centre) in centres.enumerated() {
            #expect(TestImages.distance(bitmap[centre.0, centre.1], TestImages.quadrantColours[index]) < 24,
                    "tag \(tag): quadrant \(index) at \(centre)")
        }
        // The corner pixels too, where a wrong flip would show first.
        #expect(TestImages.distance(bitmap[0, 0], TestImages.quadrantColours[0]) < 40)
        #expect(TestImages.distance(bitmap[63, 31], TestImages.quadrantColours[3]) < 40)
    }

    @Test func orientationWorksOnTheScaledDecodeToo() throws {
        // A 1024x512 portrait stored on its side (tag 6), decoded at a reduced scale.
        let upright = TestImages.quadrants(width: 512, height: 1024)
        let stored = upright.applying(.rotated90CounterClockwise)
        let jpeg = try JPEGEncoder(orientation: .rotated90Clockwise).encode(stored)
        let decoded = try ImageDecoder().decode(jpeg, minimumSide: 256)
        #expect(decoded.scale == ScalingFactor(numerator: 1, denominator: 4))
        #expect(decoded.width == 512 && decoded.height == 1024)
        #expect(decoded.bitmap.width == 128 && decoded.bitmap.height == 256)
        #expect(TestImages.distance(decoded.bitmap[32, 64], TestImages.quadrantColours[0]) < 24)
        #expect(TestImages.distance(decoded.bitmap[96, 192], TestImages.quadrantColours[3]) < 24)
    }

    @Test func damagedExifIsIgnoredNotFatal() throws {
        var jpeg = try JPEGEncoder(orientation: .rotated180).encode(TestImages.quadrants(width: 16, height: 16))
        // Point the IFD offset far outside the segment.
        let tiff = try #require(jpeg.firstIndex(of: 0x4D))
        jpeg[tiff + 7] = 0xF0
        let decoded = try ImageDecoder().decode(jpeg)
        #expect(decoded.orientation == .up)
    }

    @Test func littleEndianExifIsRead() {
        // "II", 42, IFD at 8, one entry: orientation SHORT 1 = 8.
        let tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01, 0x00,
                             0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00,
                             0x00, 0x00, 0x00, 0x00]
        #expect(Exif.orientation(inTIFF: tiff) == .rotated90CounterClockwise)
    }
}

/// `Bitmap.applying` walks each upright row along a line of the stored image by a fixed step.
/// Checked here pixel by pixel, byte for byte, against where each tag keeps an upright pixel
/// (worked out independently, as above), on sizes where a wrong step or start shows: odd,
/// one pixel wide, one pixel tall, in gray and in colour.
@Suite struct OrientationWalkTests {
    /// Where upright pixel (x, y) of an upright `w` x `h` picture is kept for each tag.
    static func storedPosition(of x: Int, _ y: Int, tag: Int, w: Int, h: Int) -> (x: Int, y: Int) {
        switch tag {
        case 1: return (x, y)
        case 2: return (w - 1 - x, y)
        case 3: return (w - 1 - x, h - 1 - y)
        case 4: return (x, h - 1 - y)
        case 5: return (y, x)
        case 6: return (y, w - 1 - x)
        case 7: return (h - 1 - y, w - 1 - x)
        default: return (h - 1 - y, x)
        }
    }

    /// Every pixel different (its bytes spell its position), so any misplaced one shows.
    static func numbered(width: Int, height: Int, channels: Int) -> Bitmap {
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<channels { pixels.append(UInt8(truncatingIfNeeded: y &* 31 &+ x &* 7 &+ c &* 101)) }
            }
        }
        return Bitmap(width: width, height: height, channels: channels, pixels: pixels)
    }

    @Test(arguments: [(7, 5), (1, 9), (9, 1), (1, 1), (256, 192)], [1, 3])
    func everyTagPutsEveryPixelWhereItBelongs(size: (Int, Int), channels: Int) throws {
        let (w, h) = size
        let upright = Self.numbered(width: w, height: h, channels: channels)
        for tag in 1...8 {
            let orientation = try #require(Orientation(rawValue: tag))
            let swaps = tag >= 5
            var stored = Bitmap(width: swaps ? h : w, height: swaps ? w : h,
                                filledWith: [UInt8](repeating: 0, count: channels))
            for y in 0..<h {
                for x in 0..<w {
                    let at = Self.storedPosition(of: x, y, tag: tag, w: w, h: h)
                    stored.set(x: at.x, y: at.y, to: Array(upright[x, y]))
                }
            }
            #expect(stored.applying(orientation) == upright, "tag \(tag), \(w)x\(h), \(channels) channels")
        }
    }
}

@Suite struct PNGOrientationTests {
    /// The PNG with an eXIf chunk (orientation only) inserted after IHDR.
    static func withExif(_ png: [UInt8], orientation: Orientation) -> [UInt8] {
        let segment = Exif.app1Segment(orientation: orientation)
        let tiff = Array(segment.dropFirst(4 + 6))   // marker, length, "Exif\0\0"
        let type = Array("eXIf".utf8)
        let length = tiff.count
        var chunk = [UInt8(length >> 24), UInt8((length >> 16) & 0xFF), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF)]
        chunk += type + tiff
        let crc = CRC32.checksum(type + tiff)
        chunk += [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)]
        let afterHeader = 8 + 25   // signature, IHDR chunk
        return Array(png[..<afterHeader]) + chunk + Array(png[afterHeader...])
    }

    @Test func pngExifOrientationIsApplied() throws {
        let upright = TestImages.quadrants(width: 40, height: 20)
        let stored = upright.applying(.rotated180)
        let png = Self.withExif(try PNGEncoder().encode(stored), orientation: .rotated180)
        let decoded = try ImageDecoder().decode(png)
        #expect(decoded.orientation == .rotated180)
        #expect(decoded.bitmap == upright)
    }
}
