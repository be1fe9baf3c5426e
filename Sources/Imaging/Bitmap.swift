/// An 8-bit image in memory, rows top to bottom, samples interleaved:
/// one channel (gray) or three (RGB).
public struct Bitmap: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// 1 for gray, 3 for RGB.
    public let channels: Int
    /// `height * width * channels` samples.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, channels: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0, "a bitmap has at least one pixel")
        precondition(channels == 1 || channels == 3, "a bitmap is gray or RGB")
        precondition(pixels.count == width * height * channels, "pixel count does not match the size")
        self.width = width
        self.height = height
        self.channels = channels
        self.pixels = pixels
    }

    /// A bitmap of one colour; `value` has `channels` samples.
    public init(width: Int, height: Int, filledWith value: [UInt8]) {
        precondition(value.count == 1 || value.count == 3, "a bitmap is gray or RGB")
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * value.count)
        for _ in 0..<(width * height) { pixels.append(contentsOf: value) }
        self.init(width: width, height: height, channels: value.count, pixels: pixels)
    }

    public var isGray: Bool { channels == 1 }

    /// The samples of the pixel at (x, y): one for gray, three for RGB.
    public subscript(x: Int, y: Int) -> ArraySlice<UInt8> {
        let start = (y * width + x) * channels
        return pixels[start..<start + channels]
    }

    /// Writes one pixel; `value` has `channels` samples.
    public mutating func set(x: Int, y: Int, to value: [UInt8]) {
        precondition(value.count == channels, "value has the wrong number of channels")
        let start = (y * width + x) * channels
        for c in 0..<channels { pixels[start + c] = value[c] }
    }

    /// Copies `other` (of the same channels) onto this bitmap with its top left corner at
    /// (`x`, `y`); the part outside this bitmap is left out.
    public mutating func draw(_ other: Bitmap, atX x: Int, y: Int) {
        precondition(other.channels == channels, "drawn bitmaps have the same channels")
        let left = max(0, x), right = min(width, x + other.width)
        guard left < right else { return }
        for row in max(0, y)..<min(height, y + other.height) {
            let source = ((row - y) * other.width + (left - x)) * channels
            let target = (row * width + left) * channels
            pixels.replaceSubrange(target..<target + (right - left) * channels,
                                   with: other.pixels[source..<source + (right - left) * channels])
        }
    }

    /// Luma as Rec. 601 in fixed point. The weights sum to 256, so a gray pixel stored as RGB
    /// comes back as exactly the same byte.
    public func grayscale() -> Bitmap {
        if isGray { return self }
        let gray = pixels.withUnsafeBufferPointer { rgb in
            [UInt8](overwriting: width * height) { out in
                for i in 0..<out.count {
                    out[i] = Self.luma(rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2])
                }
            }
        }
        return Bitmap(width: width, height: height, channels: 1, pixels: gray)
    }

    /// Rec. 601 luma of one RGB pixel in fixed point (weights 77, 150, 29 out of 256).
    @inline(__always)
    static func luma(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        let red: UInt32 = 77 * UInt32(r), green: UInt32 = 150 * UInt32(g), blue: UInt32 = 29 * UInt32(b)
        return UInt8((red + green + blue + 128) >> 8)
    }

    /// The same image with three channels.
    public func rgb() -> Bitmap {
        if !isGray { return self }
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for i in 0..<(width * height) {
            rgb[3 * i] = pixels[i]
            rgb[3 * i + 1] = pixels[i]
            rgb[3 * i + 2] = pixels[i]
        }
        return Bitmap(width: width, height: height, channels: 3, pixels: rgb)
    }

    /// The part of the image inside `rect`, which must lie within the bitmap.
    public func cropped(to rect: PixelRect) -> Bitmap {
        precondition(rect.x >= 0 && rect.y >= 0 && rect.maxX <= width && rect.maxY <= height && !rect.isEmpty,
                     "crop rectangle outside the bitmap")
        var out = [UInt8]()
        out.reserveCapacity(rect.width * rect.height * channels)
        for y in rect.y..<rect.maxY {
            let start = (y * width + rect.x) * channels
            out.append(contentsOf: pixels[start..<start + rect.width * channels])
        }
        return Bitmap(width: rect.width, height: rect.height, channels: channels, pixels: out)
    }
}

/// A rectangle in pixel coordinates, origin at the top left.
public struct PixelRect: Sendable, Equatable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The rectangle in an image `factorX` times wider and `factorY` times taller, rounded
    /// outwards so it still covers what it covered.
    public func scaled(x factorX: Double, y factorY: Double) -> PixelRect {
        let left = Int((Double(x) * factorX).rounded(.down))
        let top = Int((Double(y) * factorY).rounded(.down))
        let right = Int((Double(maxX) * factorX).rounded(.up))
        let bottom = Int((Double(maxY) * factorY).rounded(.up))
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }

    public var description: String { "\(width)x\(height) at (\(x), \(y))" }
}
