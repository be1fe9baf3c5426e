/// Random training-time changes to an image that keep its label: a shift of
/// up to `maxShift` pixels each way (zero filled, Fashion-MNIST's background)
/// and a mirror image. Clothes are left-right symmetric enough that a flipped
/// shirt is still a shirt, and shifts cover garments that are not centred.
public struct Augmentation: Sendable, Equatable {
    public var maxShift: Int
    public var horizontalFlip: Bool

    public init(maxShift: Int = 2, horizontalFlip: Bool = true) {
        self.maxShift = maxShift
        self.horizontalFlip = horizontalFlip
    }

    public static let none = Augmentation(maxShift: 0, horizontalFlip: false)

    /// Writes one 28x28 image as floats in 0...1 (byte / 255), changed at
    /// random, into `destination`.
    public func apply(_ image: UnsafePointer<UInt8>, into destination: UnsafeMutablePointer<Float>,
                      generator: inout SeededGenerator) {
        let side = FashionMNIST.side
        let dx = maxShift > 0 ? generator.below(2 * maxShift + 1) - maxShift : 0
        let dy = maxShift > 0 ? generator.below(2 * maxShift + 1) - maxShift : 0
        let flip = horizontalFlip && generator.below(2) == 1
        for y in 0..<side {
            let sy = y - dy
            for x in 0..<side {
                let sx0 = x - dx
                let sx = flip ? side - 1 - sx0 : sx0
                let inside = sy >= 0 && sy < side && sx >= 0 && sx < side
                destination[y * side + x] = inside ? Float(image[sy * side + sx]) / 255 : 0
            }
        }
    }

    /// The contract's plain conversion, for evaluation: byte / 255.
    public static func convert(_ image: UnsafePointer<UInt8>, into destination: UnsafeMutablePointer<Float>) {
        for i in 0..<FashionMNIST.pixelsPerImage { destination[i] = Float(image[i]) / 255 }
    }
}
