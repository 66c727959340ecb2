#pragma once

#include <QJsonObject>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QPushButton;
class QScrollArea;
QT_END_NAMESPACE

namespace Loopscope::Ui {

class McpResultView;
class SchemaForm;

/*!
    The right half of the Inspector's Tools and Prompts tabs: what the chosen
    tool or prompt does, a form for its arguments, what the form still needs,
    the button that sends the request, and the answer. The button is enabled
    while the panel says the server can take a request and the form is valid.
*/
class InspectorRequestForm final : public QWidget
{
    Q_OBJECT

public:
    InspectorRequestForm(const QString &buttonText, const QString &buttonToolTip, QWidget *parent = nullptr);
    ~InspectorRequestForm() override;

    // A new form for \a schema; \a noArguments is said when the schema has no properties.
    void showSubject(const QString &description, const QJsonObject &schema, const QString &noArguments);
    // Nothing is chosen: \a placeholder says what to do, and there is nothing to send.
    void clearSubject(const QString &placeholder);
    // Whether a request may go now (the server is ready, none is running).
    void setCanSend(bool canSend);
    // Shows a Cancel button beside the send button while a request runs (for requests that can be cancelled).
    void setCancellable(bool cancellable);

    SchemaForm *form() const { return m_form; }
    QPushButton *button() const { return m_button; }
    QPushButton *cancelButton() const { return m_cancel; }
    McpResultView *resultView() const { return m_result; }

signals:
    void sendRequested();
    void cancelRequested();

private:
    void replaceForm(const QJsonObject &schema);
    void updateButton();

    QLabel *m_description;
    QScrollArea *m_formArea;
    SchemaForm *m_form = nullptr;
    QLabel *m_problem;
    QPushButton *m_button;
    QPushButton *m_cancel;
    McpResultView *m_result;
    QString m_noArguments;
    bool m_hasSubject = false;
    bool m_canSend = false;
};

} // namespace Loopscope::Ui
