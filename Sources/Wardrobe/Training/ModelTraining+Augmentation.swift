import Training

extension ModelTraining {
    /// How training photos are varied, by the names `model train --photo-augment` takes.
    public enum Augmentation: String, CaseIterable, Sendable {
        /// Mirror, shift, scale, rotation and gain: the default.
        case full
        /// Mirror and shift only, as Fashion-MNIST images are varied.
        case flipShift = "flip-shift"
        case none

        public var photoAugmentation: PhotoAugmentation {
            switch self {
            case .full: PhotoAugmentation()
            case .flipShift: .flipShift
            case .none: .none
            }
        }
    }
}
