/// The shape of one sample of a value, the batch dimension left out: an image
/// `[C, H, W]` or a feature vector `[F]`. The runtime handles these two ranks.
package enum SampleShape: Equatable, Sendable, CustomStringConvertible {
    case image(channels: Int, height: Int, width: Int)
    case features(Int)

    /// From a signature's dimensions after the batch dimension.
    init?(dimensions: [Int]) {
        guard dimensions.allSatisfy({ $0 > 0 && $0 <= 1 << 24 }) else { return nil }
        switch dimensions.count {
        case 3: self = .image(channels: dimensions[0], height: dimensions[1], width: dimensions[2])
        case 1: self = .features(dimensions[0])
        default: return nil
        }
    }

    var dimensions: [Int] {
        switch self {
        case .image(let c, let h, let w): [c, h, w]
        case .features(let f): [f]
        }
    }

    package var count: Int { dimensions.reduce(1, *) }

    /// Channels of an image, features of a vector: what a per-channel layer sees.
    package var channels: Int {
        switch self {
        case .image(let c, _, _): c
        case .features(let f): f
        }
    }

    /// With the batch dimension, as a signature writes it.
    func batched(_ batch: Int = -1) -> [Int] { [batch] + dimensions }

    package var description: String { "[N," + dimensions.map(String.init).joined(separator: ",") + "]" }
}
