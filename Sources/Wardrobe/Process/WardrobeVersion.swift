/// The version of the wardrobe tool and library.
public enum WardrobeVersion {
    public static let current = "0.1.0"
}
