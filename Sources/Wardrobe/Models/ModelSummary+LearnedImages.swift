import Inference

extension ModelSummary {
    /// True for the `training` key under which a model lists the catalogue images it learned from.
    public func listsLearnedImages(_ key: String) -> Bool { key == TrainingMetadata.Key.learnedImages }

    /// How many catalogue images the model records it learned its person label from
    /// (0 when it records none); nil when the record is not a list of SHA-256 hashes.
    public var learnedImageCount: Int? { TrainingMetadata.learnedImages(in: training)?.count }
}
