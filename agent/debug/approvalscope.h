#pragma once

#include "agent/model/modelrequest.h"
#include "agent/tools/builtin/workspace.h"

#include <QList>
#include <QString>

#include <optional>

namespace Loopscope {

/*!
    How far an "Always allow" reaches: the whole tool, or the tool only for
    calls within a folder (file tools), starting with a command prefix
    (run_command) or going to a host (fetch_url). Matching errs on the side of
    asking again: a path outside the workspace never lies in a folder, and a
    command with shell operators never starts with a prefix, since
    `git status; rm -rf ~` is not a git command.
*/
struct ApprovalScope
{
    enum class Kind { Tool, Folder, CommandPrefix, Host };
    Kind kind = Kind::Tool;
    QString value; // Folder: a canonical absolute path; CommandPrefix: whole words; Host: a lower-case name

    static ApprovalScope tool() { return {}; }
    // "tool", "folder /home/me/src", "command git", "host example.com": for the trace and the settings.
    QString describe() const;
    static QString kindName(Kind kind); // "tool", "folder", "command", "host"
    static std::optional<Kind> kindFromName(const QString &name);

    bool operator==(const ApprovalScope &) const = default;
};

/*! A user's lasting "Always allow": a tool, within a scope. */
struct ScopedApproval
{
    QString tool;
    ApprovalScope scope;
    bool operator==(const ScopedApproval &) const = default;
};

// The narrower scopes to offer besides the whole tool for this call, narrowest first, if the tool has
// them and the call lies in them: the file's folder; the command's program with its subcommand, and
// the program alone; the URL's host.
QList<ApprovalScope> narrowScopesFor(const ToolCall &call, const Workspace &workspace);

// Whether the call is within the approval: the same tool, and its folder, command or host in the scope.
bool approvalCovers(const ScopedApproval &approval, const ToolCall &call, const Workspace &workspace);

// Whether a command line has anything beyond plain words for the shell: operators, substitutions,
// redirections, line breaks. Such a command is never matched by a prefix.
bool hasShellOperators(const QString &command);

} // namespace Loopscope
