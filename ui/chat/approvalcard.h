#pragma once

#include <QJsonObject>
#include <QWidget>

#include <memory>
#include <optional>

QT_BEGIN_NAMESPACE
class QLabel;
class QPlainTextEdit;
class QPushButton;
QT_END_NAMESPACE

namespace Loopscope {
class SchemaValidator;
}

namespace Loopscope::Ui {

/*!
    A held tool call, inline in the chat: its full arguments in an editor that
    checks them as JSON and against the tool's schema, and the user's choice
    of Allow once, Always allow this tool, or Deny. It only reports the
    decision; the chat passes it on to the approval policy.
*/
class ApprovalCard final : public QWidget
{
    Q_OBJECT

public:
    ApprovalCard(const QString &toolName, const QString &arguments, const QJsonObject &schema,
                 QWidget *parent = nullptr);
    ~ApprovalCard() override;

    QString arguments() const;
    void setArguments(const QString &arguments);
    // Empty when the arguments can be sent.
    QString problem() const { return m_problem; }

    // The arguments to send: nullopt when they mean what the model sent.
    std::optional<QString> editedArguments() const;

    QPlainTextEdit *editor() const { return m_editor; }
    QPushButton *allowOnceButton() const { return m_allowOnce; }
    QPushButton *alwaysAllowButton() const { return m_alwaysAllow; }
    QPushButton *denyButton() const { return m_deny; }

signals:
    void allowOnceRequested(const std::optional<QString> &editedArguments);
    void alwaysAllowRequested(const std::optional<QString> &editedArguments);
    void denyRequested();

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    void validate();
    void fitEditor();

    QJsonObject m_original;
    std::unique_ptr<SchemaValidator> m_validator;
    QString m_problem;
    QLabel *m_title;
    QPlainTextEdit *m_editor;
    QLabel *m_problemLabel;
    QPushButton *m_allowOnce;
    QPushButton *m_alwaysAllow;
    QPushButton *m_deny;
};

} // namespace Loopscope::Ui
