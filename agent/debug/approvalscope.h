#pragma once

#include "agent/model/modelrequest.h"
#include "agent/tools/builtin/workspace.h"

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

// The narrower scope to offer besides the whole tool for this call, if the tool has one and the call
// lies in it: the file's folder, the command's first word, the URL's host.
std::optional<ApprovalScope> narrowScopeFor(const ToolCall &call, const Workspace &workspace);

// Whether the call is within the approval: the same tool, and its folder, command or host in the scope.
bool approvalCovers(const ScopedApproval &approval, const ToolCall &call, const Workspace &workspace);

// Whether a command line has anything beyond plain words for the shell: operators, substitutions,
// redirections, line breaks. Such a command is never matched by a prefix.
bool hasShellOperators(const QString &command);

} // namespace Loopscope
