#pragma once

#include "agent/mcp/mcpclient.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QPushButton;
QT_END_NAMESPACE

namespace Loopscope::Ui {

class SchemaForm;

/*!
    An MCP server's question, inline in the chat like an approval and never
    modal: who asks, its message, and a form built from the request's flat
    schema (text, number, yes/no, choice and multi-choice fields; required
    ones marked), with Accept (once the required fields are filled and
    valid), Decline and Cancel. In URL mode it shows the whole address and
    Open opens it in the browser, only then. It only reports the answer; the chat passes it to the session.
*/
class ElicitationCard final : public QWidget
{
    Q_OBJECT

public:
    explicit ElicitationCard(const McpElicitation &request, QWidget *parent = nullptr);
    ~ElicitationCard() override;

    // The form's values, as the answer's content.
    QJsonObject content() const;
    // Empty when Accept can be pressed; else what to fix first.
    QString problem() const;
    // The field widget of a schema property (a QLineEdit, QSpinBox, QDoubleSpinBox, QCheckBox or QComboBox).
    QWidget *field(const QString &property) const;

    // The question is over (answered here or settled elsewhere): the form is
    // disabled and \a outcome says how it ended.
    void finish(const QString &outcome);
    bool isFinished() const { return m_closed; }

    QPushButton *acceptButton() const { return m_accept; }
    QPushButton *declineButton() const { return m_decline; }
    QPushButton *cancelButton() const { return m_cancel; }

signals:
    void answered(const Loopscope::McpElicitationAnswer &answer);

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    void validate();
    void answer(McpElicitationAnswer::Action action);

    QUrl m_url; // URL mode: the page Accept opens
    bool m_closed = false;
    SchemaForm *m_form;
    QLabel *m_problemLabel;
    QLabel *m_outcome;
    QPushButton *m_accept;
    QPushButton *m_decline;
    QPushButton *m_cancel;
};

} // namespace Loopscope::Ui
