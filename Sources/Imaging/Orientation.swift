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
    ///
    /// Every orientation maps upright (x, y) to a stored pixel by an affine rule
    /// (`sourcePixel`), so each upright row is read from the stored image along a straight
    /// line with a fixed step: a row or a column, forwards or backwards. Walking that line by
    /// its step, rather than working out every pixel's source, keeps the loop to a copy (a
    /// phone stores most photos turned, so this runs for most of them).
    public func applying(_ orientation: Orientation) -> Bitmap {
        if orientation == .up { return self }
        let outWidth = orientation.swapsSides ? height : width
        let outHeight = orientation.swapsSides ? width : height
        let channels = self.channels
        let width = self.width, height = self.height
        // The rule is affine, so three points give the start and both steps (in samples).
        let origin = orientation.sourcePixel(x: 0, y: 0, width: width, height: height)
        let alongX = orientation.sourcePixel(x: 1, y: 0, width: width, height: height)
        let alongY = orientation.sourcePixel(x: 0, y: 1, width: width, height: height)
        let start = (origin.y * width + origin.x) * channels
        let stepX = ((alongX.y - origin.y) * width + (alongX.x - origin.x)) * channels
        let stepY = ((alongY.y - origin.y) * width + (alongY.x - origin.x)) * channels
        let out = pixels.withUnsafeBufferPointer { source in
            [UInt8](overwriting: pixels.count) { target in
                let from = source.baseAddress!, to = target.baseAddress!
                for y in 0..<outHeight {
                    var s = start + y * stepY
                    var t = y * outWidth * channels
                    switch channels {
                    case 1:
                        for _ in 0..<outWidth {
                            to[t] = from[s]
                            s += stepX
                            t += 1
                        }
                    default:
                        for _ in 0..<outWidth {
                            to[t] = from[s]
                            to[t + 1] = from[s + 1]
                            to[t + 2] = from[s + 2]
                            s += stepX
                            t += 3
                        }
                    }
                }
            }
        }
        return Bitmap(width: outWidth, height: outHeight, channels: channels, pixels: out)
    }
}
