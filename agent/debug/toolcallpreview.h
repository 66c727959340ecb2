#pragma once

#include "agent/tools/builtin/workspace.h"
#include "agent/tools/linediff.h"

#include <QJsonObject>
#include <QString>

namespace Loopscope {

/*!
    What a call to a tool with effects would do, worked out before it runs so
    that the user approves the effect and not a blob of JSON: a file change as
    a diff against the file on disk, a command with its folder and timeout, a
    fetch with its host. Built from the arguments alone (the tool is not run);
    edit_file's diff comes from the very replacement the tool applies, so the
    preview and the edit agree. Reads the file: call it off the GUI thread.
*/
struct ToolCallPreview
{
    enum class Kind { None, FileChange, Command, Fetch };
    Kind kind = Kind::None;

    // FileChange
    QString path; // as the model gave it
    bool newFile = false;
    LineDiff diff;
    QString error; // the change would fail (edit does not apply, path refused); no diff then

    // Command
    QString command;
    QString folder; // where it runs (the workspace)
    int timeoutSeconds = 0;

    // Fetch
    QString url;
    QString host;
    bool privateAddress = false; // loopback, private or link-local: the user's machine or LAN

    // The preview as plain text, for the trace: the diff, or the command, folder and timeout, or the URL.
    QString text() const;

    bool operator==(const ToolCallPreview &) const = default;
};

// Which tools have a preview: the built-in ones that change files, run commands or fetch.
bool hasToolCallPreview(const QString &toolName);

ToolCallPreview previewToolCall(const QString &toolName, const QJsonObject &arguments,
                                const Workspace &workspace);

// Whether a host names the user's own machine or network: localhost, or a loopback, private,
// link-local or unique-local address literal, as fetch_url judges it. Names are not looked up.
bool isPrivateHost(const QString &host);

} // namespace Loopscope
