#include "agent/debug/toolcallpreview.h"

#include "agent/tools/builtin/fetchurltool.h"

#include "agent/tools/builtin/textreplacement.h"
#include "agent/tools/writetarget.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QHostAddress>
#include <QStringDecoder>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

struct PreviewText
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::ToolCallPreview)
};

// Larger files are not diffed: reading and diffing them would keep the user waiting for a card.
constexpr qint64 MaxPreviewBytes = 8 * 1024 * 1024;
constexpr int DefaultCommandTimeoutSeconds = 120; // run_command's own default

struct FileText
{
    QString text;
    QString error;
};

FileText readText(const QString &path)
{
    QFile file(path);
    if (file.size() > MaxPreviewBytes)
        return {
            {},
            PreviewText::tr("The file is too large to preview (%1 MB).").arg(file.size() / (1024 * 1024))};
    if (!file.open(QIODevice::ReadOnly))
        return {{}, PreviewText::tr("The file cannot be read: %1").arg(file.errorString())};
    const QByteArray data = file.readAll();
    if (data.contains('\0'))
        return {{}, PreviewText::tr("The file is binary; it is not shown as a diff.")};
    auto decode = QStringDecoder(QStringDecoder::Utf8);
    return {decode(data), {}};
}

ToolCallPreview previewFileChange(const QString &toolName, const QJsonObject &arguments,
                                  const Workspace &workspace)
{
    ToolCallPreview preview;
    preview.kind = ToolCallPreview::Kind::FileChange;
    preview.path = arguments.value("path"_L1).toString();
    const WriteTarget target = resolveWriteTarget(workspace, preview.path);
    if (!target.isValid()) {
        preview.error = target.error;
        return preview;
    }
    preview.newFile = !target.exists;
    FileText before;
    if (target.exists) {
        before = readText(target.filePath);
        if (!before.error.isEmpty()) {
            preview.error = before.error;
            return preview;
        }
    }
    QString after;
    if (toolName == u"write_file") {
        after = arguments.value("content"_L1).toString();
    } else {
        if (!target.exists) {
            preview.error
                = PreviewText::tr("'%1' does not exist, so there is nothing to edit.").arg(preview.path);
            return preview;
        }
        const TextReplacement replacement = replaceExactText(
            before.text, arguments.value("old_text"_L1).toString(), arguments.value("new_text"_L1).toString(),
            arguments.value("replace_all"_L1).toBool());
        if (!replacement.isValid()) {
            preview.error = replacement.error;
            return preview;
        }
        after = replacement.text;
    }
    preview.diff = diffLines(before.text, after);
    return preview;
}

ToolCallPreview previewCommand(const QJsonObject &arguments, const Workspace &workspace)
{
    ToolCallPreview preview;
    preview.kind = ToolCallPreview::Kind::Command;
    preview.command = arguments.value("command"_L1).toString();
    const QString root = workspace.canonicalRoot();
    preview.folder = QDir::toNativeSeparators(root.isEmpty() ? workspace.root() : root);
    preview.timeoutSeconds = arguments.value("timeout_s"_L1).toInt(DefaultCommandTimeoutSeconds);
    return preview;
}

ToolCallPreview previewFetch(const QJsonObject &arguments)
{
    ToolCallPreview preview;
    preview.kind = ToolCallPreview::Kind::Fetch;
    preview.url = arguments.value("url"_L1).toString();
    const QUrl url(preview.url, QUrl::StrictMode);
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || (scheme != u"http" && scheme != u"https") || url.host().isEmpty()) {
        preview.error = PreviewText::tr("Not an http or https URL.");
        return preview;
    }
    preview.host = url.host().toLower();
    preview.privateAddress = isPrivateHost(preview.host);
    return preview;
}

} // namespace

bool hasToolCallPreview(const QString &toolName)
{
    return toolName == u"write_file" || toolName == u"edit_file" || toolName == u"run_command"
           || toolName == u"fetch_url";
}

ToolCallPreview previewToolCall(const QString &toolName, const QJsonObject &arguments,
                                const Workspace &workspace)
{
    if (toolName == u"write_file" || toolName == u"edit_file")
        return previewFileChange(toolName, arguments, workspace);
    if (toolName == u"run_command")
        return previewCommand(arguments, workspace);
    if (toolName == u"fetch_url")
        return previewFetch(arguments);
    return {};
}

bool isPrivateHost(const QString &host)
{
    const QString name = host.toLower();
    if (name == u"localhost" || name.endsWith(u".localhost"_s))
        return true;
    QHostAddress address;
    if (!address.setAddress(name.startsWith(u'[') && name.endsWith(u']') ? name.mid(1, name.size() - 2)
                                                                         : name))
        return false;
    // The card says what fetch_url will refuse: one rule for both.
    return FetchUrlTool::isPrivateAddress(address);
}

QString ToolCallPreview::text() const
{
    switch (kind) {
    case Kind::None: return {};
    case Kind::FileChange: {
        const QString heading
            = (newFile ? PreviewText::tr("new file %1") : PreviewText::tr("edit %1")).arg(path);
        return heading + u'\n' + (error.isEmpty() ? diff.unifiedText() : error);
    }
    case Kind::Command:
        return PreviewText::tr("command: %1\nfolder: %2\ntimeout: %n s", nullptr, timeoutSeconds)
            .arg(command, folder);
    case Kind::Fetch:
        return error.isEmpty()
                   ? PreviewText::tr("GET %1\nhost: %2%3")
                         .arg(url, host, privateAddress ? PreviewText::tr(" (private address)") : QString())
                   : PreviewText::tr("GET %1\n%2").arg(url, error);
    }
    return {};
}

} // namespace Loopscope
