/// The project's contract, declared here and only here: the side of the square
/// grayscale image a model takes, its channel count and the ten labels in index
/// order. A module of its own so that the runtime (`ModelContract`, because
/// model files carry the labels) and the prep recipes (which make the image)
/// both take it from one place, and neither depends on the other for it.
public enum Contract {
    /// Side of the square input image, in pixels.
    public static let side = 28
    /// Channels of the input image: one, grayscale.
    public static let channels = 1
    /// Values of one input image: channels x side x side.
    public static let valuesPerImage = channels * side * side
    /// The labels, index 0..<10 in this order: Fashion-MNIST's classes.
    public static let labels = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"]
}
