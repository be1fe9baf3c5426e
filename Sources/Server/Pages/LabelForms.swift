import Wardrobe

/// The buttons that correct a label: one form per act, posted to `/label`
/// with the page's token, so they work without JavaScript; with it, each
/// button answers to its key (`data-key`).
enum LabelForms {
    /// The key of each label in review: 1...9 and 0 for the ten, n for none.
    static func key(of label: Int) -> String {
        label == LabelMatcher.noneLabel ? "n" : label == 9 ? "0" : String(label + 1)
    }

    static func buttons(id: Int64, back: String, token: String, modelLabel: String?, corrected: Bool,
                        keys: Bool, undoable: Bool = false) -> HTML {
        func form(_ action: String, label: String?, text: HTML, key: String?, primary: Bool = false) -> HTML {
            let labelField: HTML = label.map { "<input type=\"hidden\" name=\"label\" value=\"\(text: $0)\">" } ?? ""
            let keyAttribute: HTML = keys && key != nil ? " data-key=\"\(text: key)\"" : ""
            let keyHint: HTML = keys && key != nil ? "<kbd>\(text: key == "enter" ? "Enter" : key)</kbd>" : ""
            let undo: HTML = undoable ? "<input type=\"hidden\" name=\"undoable\" value=\"1\">" : ""
            // Markup, not text: a String interpolated into HTML would be escaped and lose its quotes.
            let style: HTML = primary ? " class=\"primary\"" : ""
            return """
                <form method="post" action="/label"><input type="hidden" name="token" value="\(text: token)">\
                <input type="hidden" name="id" value="\(id)"><input type="hidden" name="action" value="\(text: action)">\
                \(labelField)<input type="hidden" name="back" value="\(text: back)">\(undo)\
                <button type="submit"\(style)\(keyAttribute)>\(keyHint)\(text)</button></form>
                """
        }
        var forms: [HTML] = []
        if let modelLabel {
            forms.append(form("confirm", label: nil, text: "Confirm \(text: modelLabel)", key: "enter", primary: true))
        }
        for label in 0...LabelMatcher.noneLabel {
            let name = LabelMatcher.name(of: label)
            forms.append(form("label", label: name, text: "\(text: name)", key: key(of: label)))
        }
        if corrected { forms.append(form("clear", label: nil, text: "Clear my label", key: nil)) }
        return "<div class=\"labels\">\(forms)</div>"
    }

    /// After an act: a button (key `u`) that undoes it, the act the server keeps under `undo`
    /// (see `UndoLedger`) on image `id`, then goes to `back`.
    static func undoNotice(id: Int64, undo: String, back: String, token: String) -> HTML {
        """
        <form class="inline notice" method="post" action="/label"><input type="hidden" name="token" value="\(text: token)">\
        <input type="hidden" name="id" value="\(id)"><input type="hidden" name="action" value="restore">\
        <input type="hidden" name="undo" value="\(text: undo)"><input type="hidden" name="back" value="\(text: back)">\
        <span>Saved.</span><button type="submit" data-key="u"><kbd>u</kbd>Undo</button></form>
        """
    }
}
