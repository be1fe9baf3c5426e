/// The EXIF orientation tag (0x0112): how the stored pixels must be turned to be seen upright.
public enum Orientation: Int, Sendable, Equatable, CaseIterable {
    case up = 1
    case mirrored = 2
    case rotated180 = 3
    case mirroredVertically = 4
    /// Mirrored along the top-left to bottom-right diagonal.
    case transposed = 5
    /// The stored image must turn 90 degrees clockwise.
    case rotated90Clockwise = 6
    /// Mirrored along the top-right to bottom-left diagonal.
    case transversed = 7
    /// The stored image must turn 90 degrees counter-clockwise.
    case rotated90CounterClockwise = 8

    /// Whether the upright image swaps width and height.
    public var swapsSides: Bool { rawValue >= 5 }

    /// The stored pixel shown at upright position (x, y), for a stored image `width` x `height`.
    func sourcePixel(x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int) {
        switch self {
        case .up: (x, y)
        case .mirrored: (width - 1 - x, y)
        case .rotated180: (width - 1 - x, height - 1 - y)
        case .mirroredVertically: (x, height - 1 - y)
        case .transposed: (y, x)
        case .rotated90Clockwise: (y, height - 1 - x)
        case .transversed: (width - 1 - y, height - 1 - x)
        case .rotated90CounterClockwise: (width - 1 - y, x)
        }
    }
}

extension Bitmap {
    /// The image as a viewer shows it when its EXIF orientation is `orientation`.
    public func applying(_ orientation: Orientation) -> Bitmap {
        if orientation == .up { return self }
        let outWidth = orientation.swapsSides ? height : width
        let outHeight = orientation.swapsSides ? width : height
        var out = [UInt8](repeating: 0, count: pixels.count)
        let channels = self.channels
        pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                for y in 0..<outHeight {
                    for x in 0..<outWidth {
                        let from = orientation.sourcePixel(x: x, y: y, width: width, height: height)
                        let s = (from.y * width + from.x) * channels
                        let t = (y * outWidth + x) * channels
                        for c in 0..<channels { target[t + c] = source[s + c] }
                    }
                }
            }
        }
        return Bitmap(width: outWidth, height: outHeight, channels: channels, pixels: out)
    }
}
