#pragma once

#include "agent/debug/approvalscope.h"
#include "agent/debug/toolcallpreview.h"
#include "agent/tools/builtin/workspace.h"

#include <QFutureWatcher>
#include <QJsonObject>
#include <QWidget>

#include <memory>
#include <optional>

QT_BEGIN_NAMESPACE
class QLabel;
class QMenu;
class QPlainTextEdit;
class QPushButton;
class QTimer;
class QToolButton;
QT_END_NAMESPACE

namespace Loopscope {
class SchemaValidator;
}

namespace Loopscope::Ui {

class DiffView;

/*!
    A held tool call, inline in the chat. For a tool with effects it shows
    what will happen: a file change as a diff against the file on disk, a
    command with its folder and timeout, a fetch with its host; the arguments
    sit in an editor under "Edit arguments" that checks them as JSON and
    against the tool's schema, and editing them updates the preview. The user
    chooses Allow once, Always allow (the tool, or only its calls within a
    folder, command prefix or host), or Deny. It only reports the decision;
    the chat passes it on to the approval policy.
*/
class ApprovalCard final : public QWidget
{
    Q_OBJECT

public:
    ApprovalCard(const QString &toolName, const QString &arguments, const QJsonObject &schema,
                 const Workspace &workspace = {}, QWidget *parent = nullptr);
    ~ApprovalCard() override;

    // The MCP server (its configured name) the tool comes from; empty for a built-in tool.
    void setServerName(const QString &serverName);
    QString serverName() const { return m_serverName; }
    QLabel *title() const { return m_title; }

    QString arguments() const;
    void setArguments(const QString &arguments);
    // Empty when the arguments can be sent.
    QString problem() const { return m_problem; }

    // The arguments to send: nullopt when they mean what the model sent.
    std::optional<QString> editedArguments() const;

    // The preview on show (Kind::None while it is worked out, or for tools without one),
    // and as plain text for the trace.
    const ToolCallPreview &preview() const { return m_preview; }
    QString previewText() const { return m_preview.text(); }
    // The narrower "Always allow"s on offer for these arguments, narrowest first.
    QList<ApprovalScope> offeredScopes() const { return m_offeredScopes; }
    // Whether a preview is being worked out (the arguments changed, or the file is read).
    bool isPreviewPending() const;

    QPlainTextEdit *editor() const { return m_editor; }
    DiffView *diffView() const { return m_diffView; }
    QLabel *previewSummary() const { return m_summary; }
    QPushButton *allowOnceButton() const { return m_allowOnce; }
    // Always allow: the tool at once when it has no narrower scope; otherwise a menu of scopes.
    QPushButton *alwaysAllowButton() const { return m_alwaysAllow; }
    QMenu *alwaysAllowMenu() const { return m_alwaysMenu; }
    QPushButton *denyButton() const { return m_deny; }
    QToolButton *editArgumentsToggle() const { return m_editToggle; }

signals:
    void allowOnceRequested(const std::optional<QString> &editedArguments);
    void alwaysAllowRequested(const Loopscope::ApprovalScope &scope,
                              const std::optional<QString> &editedArguments);
    void denyRequested();
    // A new preview is on show.
    void previewChanged();

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    struct Computed
    {
        ToolCallPreview preview;
        QList<ApprovalScope> scopes;
    };
    static Computed compute(const QString &toolName, const QJsonObject &arguments, const Workspace &workspace,
                            const QString &callArguments);

    void updateTitle();
    void validate();
    void fitEditor();
    void schedulePreview();
    void startPreview();
    void showPreview(const Computed &computed);
    void updateAlwaysAllow();
    void setEditorShown(bool shown);
    QString scopeLabel(const ApprovalScope &scope) const;

    QString m_toolName;
    QString m_serverName;
    Workspace m_workspace;
    QJsonObject m_original;
    std::unique_ptr<SchemaValidator> m_validator;
    QString m_problem;
    ToolCallPreview m_preview;
    QList<ApprovalScope> m_offeredScopes;
    bool m_computing = false; // until the watcher reported: its future may be done before
    bool m_rerunPreview = false;
    QFutureWatcher<Computed> m_previewWatcher;
    QTimer *m_previewTimer;

    QLabel *m_title;
    QLabel *m_summary;
    DiffView *m_diffView;
    QLabel *m_details; // a command or a fetch, in monospace
    QLabel *m_warning;
    QToolButton *m_editToggle;
    QPlainTextEdit *m_editor;
    QLabel *m_problemLabel;
    QPushButton *m_allowOnce;
    QPushButton *m_alwaysAllow;
    QMenu *m_alwaysMenu;
    QPushButton *m_deny;
};

} // namespace Loopscope::Ui
