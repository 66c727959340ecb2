#pragma once

#include "agent/mcp/mcpclient.h"

#include <QHash>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QFormLayout;
class QLabel;
class QPushButton;
QT_END_NAMESPACE

namespace Loopscope::Ui {

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
    QString problem() const { return m_problem; }
    // The field widget of a schema property (a QLineEdit, QSpinBox, QDoubleSpinBox, QCheckBox or QComboBox).
    QWidget *field(const QString &property) const { return m_fields.value(property); }

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
    void addField(const QString &property, const QJsonObject &schema, bool required);
    void validate();
    void answer(McpElicitationAnswer::Action action);

    QUrl m_url; // URL mode: the page Accept opens
    QJsonObject m_properties;
    QStringList m_required;
    QStringList m_order; // the fields as shown: required first
    QHash<QString, QWidget *> m_fields;
    QSet<QString> m_touched; // optional numbers are sent only once set
    QString m_problem;
    bool m_closed = false;
    QFormLayout *m_form;
    QLabel *m_problemLabel;
    QLabel *m_outcome;
    QPushButton *m_accept;
    QPushButton *m_decline;
    QPushButton *m_cancel;
};

} // namespace Loopscope::Ui
