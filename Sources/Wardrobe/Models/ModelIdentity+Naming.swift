import Inference

extension ModelIdentity {
    /// Why `text` cannot be a model's name or version (more than a hundred characters, a
    /// control character), or nil: for the commands that take them before a model file is
    /// written, so a name the reader would refuse is refused before minutes of training.
    public static func problem(withNameOrVersion text: String) -> String? {
        ModelDescription.problem(withIdentity: text)
    }
}
