#include "agent/debug/approvalscope.h"

#include "agent/conversation/enumnames.h"
#include "agent/tools/writetarget.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

constexpr EnumName<ApprovalScope::Kind> KindNames[] = {
    {ApprovalScope::Kind::Tool, u"tool"},
    {ApprovalScope::Kind::Folder, u"folder"},
    {ApprovalScope::Kind::CommandPrefix, u"command"},
    {ApprovalScope::Kind::Host, u"host"},
};

// Which argument of which tool a narrower scope looks at.
std::optional<ApprovalScope::Kind> scopeKindOf(const QString &toolName)
{
    if (toolName == u"write_file" || toolName == u"edit_file")
        return ApprovalScope::Kind::Folder;
    if (toolName == u"run_command")
        return ApprovalScope::Kind::CommandPrefix;
    if (toolName == u"fetch_url")
        return ApprovalScope::Kind::Host;
    return std::nullopt;
}

QString stringArgument(const ToolCall &call, QLatin1StringView name)
{
    return QJsonDocument::fromJson(call.arguments.toUtf8()).object().value(name).toString();
}

QStringList commandWords(const QString &command)
{
    return command.split(QRegularExpression(u"\\s+"_s), Qt::SkipEmptyParts);
}

QString callFolder(const ToolCall &call, const Workspace &workspace)
{
    const WriteTarget target = resolveWriteTarget(workspace, stringArgument(call, "path"_L1));
    return target.isValid() ? target.folder : QString();
}

QString callHost(const ToolCall &call)
{
    const QUrl url(stringArgument(call, "url"_L1), QUrl::StrictMode);
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || (scheme != u"http" && scheme != u"https"))
        return {};
    return url.host().toLower();
}

} // namespace

QString ApprovalScope::kindName(Kind kind)
{
    return nameOf(KindNames, kind);
}

std::optional<ApprovalScope::Kind> ApprovalScope::kindFromName(const QString &name)
{
    return valueNamed(KindNames, name);
}

QString ApprovalScope::describe() const
{
    return kind == Kind::Tool ? kindName(kind) : kindName(kind) + u' ' + value;
}

bool hasShellOperators(const QString &command)
{
    // Sequences, pipes, substitutions, redirections, globs and (for cmd.exe) %VAR% and ^ escapes.
    // Backslashes too: an escaped character is not the word it looks like.
    static const QRegularExpression operators(u"[;&|`$<>(){}\\\\\\n\\r*?\\[\\]~!#%^]"_s);
    return command.contains(operators);
}

QList<ApprovalScope> narrowScopesFor(const ToolCall &call, const Workspace &workspace)
{
    const std::optional<ApprovalScope::Kind> kind = scopeKindOf(call.name);
    if (!kind)
        return {};
    QStringList values;
    switch (*kind) {
    case ApprovalScope::Kind::Tool: break;
    case ApprovalScope::Kind::Folder: {
        // The folder as far as it exists: a rule for a folder yet to be created would hold for nothing.
        QString folder = callFolder(call, workspace);
        while (!folder.isEmpty() && !QFileInfo(folder).isDir())
            folder = QFileInfo(folder).absolutePath();
        values.append(folder);
        break;
    }
    case ApprovalScope::Kind::CommandPrefix: {
        const QString command = stringArgument(call, "command"_L1);
        if (hasShellOperators(command))
            break;
        // The program and its subcommand ("git status"), when it has one, then the program alone.
        const QStringList words = commandWords(command);
        if (words.size() >= 2 && !words.at(1).startsWith(u'-'))
            values.append(words.mid(0, 2).join(u' '));
        values.append(words.value(0));
        break;
    }
    case ApprovalScope::Kind::Host: values.append(callHost(call)); break;
    }
    QList<ApprovalScope> scopes;
    for (const QString &value : std::as_const(values)) {
        if (!value.isEmpty())
            scopes.append({*kind, value});
    }
    return scopes;
}

bool approvalCovers(const ScopedApproval &approval, const ToolCall &call, const Workspace &workspace)
{
    if (approval.tool != call.name)
        return false;
    const ApprovalScope &scope = approval.scope;
    switch (scope.kind) {
    case ApprovalScope::Kind::Tool: return true;
    case ApprovalScope::Kind::Folder: {
        if (scopeKindOf(call.name) != ApprovalScope::Kind::Folder)
            return false;
        // Both inside today's workspace: a rule kept from another workspace does not reach out of this one.
        const QString folder = callFolder(call, workspace);
        return Workspace::isWithin(workspace.canonicalRoot(), folder)
               && Workspace::isWithin(scope.value, folder);
    }
    case ApprovalScope::Kind::CommandPrefix: {
        if (scopeKindOf(call.name) != ApprovalScope::Kind::CommandPrefix)
            return false;
        const QString command = stringArgument(call, "command"_L1);
        const QStringList prefix = commandWords(scope.value);
        const QStringList words = commandWords(command);
        return !prefix.isEmpty() && !hasShellOperators(command) && words.mid(0, prefix.size()) == prefix;
    }
    case ApprovalScope::Kind::Host:
        return scopeKindOf(call.name) == ApprovalScope::Kind::Host && !scope.value.isEmpty()
               && callHost(call) == scope.value.toLower();
    }
    return false;
}

} // namespace Loopscope
