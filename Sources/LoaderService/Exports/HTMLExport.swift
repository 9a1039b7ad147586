import LoaderEngine
import LoaderFormats

/// `animation.html`: `animation.css` in a `<style>` and its markup, to
/// paste into a page; `label` is the container's accessible name.
struct HTMLExport: LoopExport {
    let file = "animation.html"
    let title = "HTML"
    let mediaType = "text/html"
    let needsReducedLoop = true
    let operationName = "AnimationHTML"
    let options = [
        ExportOption(name: "label", summary: "The container's aria-label (default Loading), 1 to 200 characters, no control characters.",
                     schema: #"{"type":"string","minLength":1,"maxLength":200,"pattern":"^[^\u0000-\u001F\u007F-\u009F]*$"}"#) { value, options in
            guard (1...200).contains(value.unicodeScalars.count) else { return "label must be 1 to 200 characters of text" }
            // C0 and C1 controls (NUL, ESC, …) are no part of an accessible name.
            guard !value.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
                return "label must be text without control characters"
            }
            options.label = value
            return nil
        },
    ]
    func summary(_ label: String, loop: String) -> String {
        "A self-contained HTML snippet for \(label): a <style> with animation.css and the markup, one container role=\"progressbar\" (no value: indeterminate) with an aria-label (label=, default Loading) and one node per element with data-element=\"<id>\"."
    }
    func write(_ loop: SampledLoop, reduced: SampledLoop?, options: PictureOptions) -> [UInt8] {
        Array(CSSWriter(name: loop.loader.name, normal: loop, reduced: reduced ?? loop, colorGiven: options.colorGiven).html(label: options.label ?? "Loading").utf8)
    }
}
