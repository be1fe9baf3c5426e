/// The contract's baseline: the whole image drawn into 28x28 one-channel grayscale by area
/// averaging, each byte scaled by 1/255. A 28x28 gray image comes through byte for byte, so a
/// Fashion-MNIST image saved as PNG gives exactly the data set's tensor.
public struct FashionMNISTRecipe: PrepRecipe {
    public let name = "fashion-mnist"
    public let version = 1
    public let summary = "whole image squashed to \(PreparedTensor.side)x\(PreparedTensor.side) gray, bytes / 255 (for inputs that look like Fashion-MNIST)"

    public init() {}

    public func prepare(_ image: Bitmap) -> PreparedTensor {
        let side = PreparedTensor.side
        let small = image.grayscale().resized(width: side, height: side)
        return PreparedTensor(values: small.pixels.map { Float($0) / 255 },
                              cropBox: PixelRect(x: 0, y: 0, width: image.width, height: image.height))
    }
}
