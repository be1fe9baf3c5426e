import Inference

/// The Fashion-MNIST data set: grayscale images of the contract's side with
/// labels in the contract's order (`ModelContract`).
public struct FashionMNIST: Sendable {
    public static let defaultDirectory = "/usr/share/datasets/fashion-mnist"
    /// The contract's labels, in index order.
    public static let labels = ModelContract.labels
    public static let side = ModelContract.side
    public static let pixelsPerImage = side * side

    public enum Split: String, Sendable { case train, test }

    /// Image bytes, `count * 784`, row-major per image.
    public let pixels: [UInt8]
    public let labels: [UInt8]
    public var count: Int { labels.count }

    public init(split: Split, directory: String = FashionMNIST.defaultDirectory) throws(DatasetError) {
        let prefix = split == .train ? "train" : "t10k"
        let imagesPath = "\(directory)/\(prefix)-images-idx3-ubyte.gz"
        let labelsPath = "\(directory)/\(prefix)-labels-idx1-ubyte.gz"
        let images = try IDXFile(gzipPath: imagesPath)
        let labels = try IDXFile(gzipPath: labelsPath)
        guard images.dimensions.count == 3, images.dimensions[1] == Self.side, images.dimensions[2] == Self.side else {
            throw .malformed(path: imagesPath, reason: "dimensions \(images.dimensions), expected [N, \(Self.side), \(Self.side)]")
        }
        guard labels.dimensions.count == 1, labels.dimensions[0] == images.dimensions[0] else {
            throw .malformed(path: labelsPath, reason: "\(labels.dimensions.first ?? 0) labels for \(images.dimensions[0]) images")
        }
        guard labels.bytes.allSatisfy({ Int($0) < Self.labels.count }) else {
            throw .malformed(path: labelsPath, reason: "a label is outside 0...\(Self.labels.count - 1)")
        }
        self.pixels = images.bytes
        self.labels = labels.bytes
    }

    /// One image's bytes.
    public func image(_ index: Int) -> ArraySlice<UInt8> {
        pixels[index * Self.pixelsPerImage..<(index + 1) * Self.pixelsPerImage]
    }
}
