import Foundation

/// Random changes to a prepared photo tensor (28x28 floats, garment light on
/// black) that keep its label: a mirror image; an affine warp (shift, scale
/// about the centre, rotation) sampled bilinearly with black outside; a
/// contrast gain. Photos vary more than Fashion-MNIST does (where the garment
/// sits after the crop, how tight the crop is, how bright the inverted
/// garment comes out), and these are the ways prep output varies.
public struct PhotoAugmentation: Sendable, Equatable {
    public var horizontalFlip: Bool
    /// Largest shift each way, in pixels of the 28x28 tensor.
    public var maxShift: Float
    /// Scale drawn from `1 - maxScale ... 1 + maxScale`.
    public var maxScale: Float
    /// Rotation drawn from `-maxRotation ... maxRotation` degrees.
    public var maxRotation: Float
    /// Values multiplied by a gain drawn from `1 - maxGain ... 1 + maxGain`, clipped to 0...1.
    public var maxGain: Float

    public init(horizontalFlip: Bool = true, maxShift: Float = 2, maxScale: Float = 0.1, maxRotation: Float = 10,
                maxGain: Float = 0.2) {
        self.horizontalFlip = horizontalFlip
        self.maxShift = maxShift
        self.maxScale = maxScale
        self.maxRotation = maxRotation
        self.maxGain = maxGain
    }

    public static let none = PhotoAugmentation(horizontalFlip: false, maxShift: 0, maxScale: 0, maxRotation: 0, maxGain: 0)

    /// Mirror and shift only: what Fashion-MNIST images get.
    public static let flipShift = PhotoAugmentation(maxScale: 0, maxRotation: 0, maxGain: 0)

    private var warps: Bool { maxShift > 0 || maxScale > 0 || maxRotation > 0 }

    /// One line for logs and the model's metadata.
    public var summary: String {
        var parts: [String] = []
        if horizontalFlip { parts.append("horizontal flip") }
        if maxShift > 0 { parts.append("shift up to \(maxShift) px") }
        if maxScale > 0 { parts.append("scale ±\(maxScale)") }
        if maxRotation > 0 { parts.append("rotation ±\(maxRotation)°") }
        if maxGain > 0 { parts.append("gain ±\(maxGain)") }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }

    /// Writes a changed copy of one tensor into `destination`. Draws the
    /// same number of values from `generator` whatever is switched on, so
    /// switching one change off does not reshuffle the others.
    public func apply(_ source: UnsafePointer<Float>, into destination: UnsafeMutablePointer<Float>,
                      generator: inout SeededGenerator) {
        let side = FashionMNIST.side
        let flip = generator.below(2) == 1 && horizontalFlip
        let dx = (2 * generator.unitFloat() - 1) * maxShift
        let dy = (2 * generator.unitFloat() - 1) * maxShift
        let scale = 1 + (2 * generator.unitFloat() - 1) * maxScale
        let angle = (2 * generator.unitFloat() - 1) * maxRotation * .pi / 180
        let gain = 1 + (2 * generator.unitFloat() - 1) * maxGain
        guard warps else {
            for y in 0..<side {
                for x in 0..<side {
                    let v = source[y * side + (flip ? side - 1 - x : x)] * gain
                    destination[y * side + x] = min(max(v, 0), 1)
                }
            }
            return
        }
        // Inverse mapping: for each output pixel, where it comes from.
        let centre = Float(side - 1) / 2
        let c = cos(angle) / scale, s = sin(angle) / scale
        for y in 0..<side {
            for x in 0..<side {
                let ox = Float(x) - centre - dx, oy = Float(y) - centre - dy
                var sx = c * ox + s * oy + centre
                let sy = -s * ox + c * oy + centre
                if flip { sx = Float(side - 1) - sx }
                destination[y * side + x] = min(max(Self.sample(source, x: sx, y: sy) * gain, 0), 1)
            }
        }
    }

    /// Bilinear sample, zero outside the image.
    private static func sample(_ image: UnsafePointer<Float>, x: Float, y: Float) -> Float {
        let side = FashionMNIST.side
        let x0 = Int(x.rounded(.down)), y0 = Int(y.rounded(.down))
        let fx = x - Float(x0), fy = y - Float(y0)
        func at(_ px: Int, _ py: Int) -> Float {
            px >= 0 && px < side && py >= 0 && py < side ? image[py * side + px] : 0
        }
        let top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx
        let bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx
        return top * (1 - fy) + bottom * fy
    }
}
