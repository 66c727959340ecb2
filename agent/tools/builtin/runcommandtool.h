#pragma once

#include "agent/tools/builtin/workspace.h"
#include "agent/tools/tool.h"

#include <QCoreApplication>
#include <QStringList>

#include <functional>

namespace Loopscope {

/*!
    What run_command keeps from the commands it runs and from what they print,
    so that an approved `env` does not put the provider's API key into the
    tool result, the transcript and the trace. Given by the session, which
    knows the key and where it came from; tools/ sits below both.
*/
struct CommandSecrets
{
    // Left out of the command's environment: the variables that hold API keys.
    QStringList hiddenVariables;
    // Applied to everything the command printed before anyone sees it; none: the text as printed.
    std::function<QString(const QString &)> redact;
};

/*!
    Runs a command line through the user's shell ($SHELL -c, else /bin/sh;
    cmd.exe /c on Windows) in the workspace folder. It can do anything the
    user's account can: approval is the only guard, so it asks first.

    The command gets a process group of its own, so a timeout, a cancellation
    or the end of the command ends everything it started (no orphans left
    behind: SIGTERM, then SIGKILL after a short grace); what left the group
    with setsid() is found by the mark in its environment and killed. stdout and stderr are
    merged as they interleave and streamed as progress, a few lines at a time;
    the model gets the output capped (head and tail, with a note of what was
    dropped) and the exit code, the trace the full output (up to a generous
    cap) in the result's details under "command". A non-zero exit is reported,
    not treated as the tool failing: a model fixing failing tests is no runaway.
    The command inherits the app's environment except the CommandSecrets'
    variables, and its output passes through their redaction.
*/
class RunCommandTool final : public Tool
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::RunCommandTool)

public:
    static constexpr QLatin1StringView Name{"run_command"};
    static constexpr int DefaultTimeoutS = 120;
    static constexpr int MaxTimeoutS = 3600;
    // What the model sees of the output: the first and the last half of this.
    static constexpr qsizetype MaxOutputBytes = 32 * 1024;
    // What the trace keeps (details.command.output).
    static constexpr qsizetype MaxDetailsBytes = 1024 * 1024;
    // What is streamed as progress at most; the rest is in the result.
    static constexpr qsizetype MaxProgressBytes = 256 * 1024;
    static constexpr int ProgressIntervalMs = 200;
    static constexpr int KillGraceMs = 2000;
    // Set in each command's environment to a value of its own: what still carries it when the
    // command ended (a process that left the group with setsid) is ended too.
    static constexpr char MarkVariable[] = "LOOPSCOPE_COMMAND";

    explicit RunCommandTool(Workspace workspace, CommandSecrets secrets = {});

    ToolSchema schema() const override;
    ToolBehaviour behaviour() const override;
    ToolResult invoke(const QJsonObject &arguments, ToolContext &context) const override;

    // The shell and the arguments that run \a command: ($SHELL or /bin/sh) -c, or cmd.exe /c.
    static QStringList shellCommandLine(const QString &command);

private:
    QString redacted(const QString &output) const;

    Workspace m_workspace;
    CommandSecrets m_secrets;
};

} // namespace Loopscope
