#pragma once

#include <QLabel>

namespace Loopscope::Ui {

// A page's explanation under a control: wrapped, plain and in the placeholder's colour.
inline QLabel *hintLabel(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    label->setForegroundRole(QPalette::PlaceholderText);
    return label;
}

// A control with the object name tests find it by and the name a screen reader says.
template<typename Widget>
Widget *named(Widget *widget, const QString &objectName, const QString &accessibleName)
{
    widget->setObjectName(objectName);
    widget->setAccessibleName(accessibleName);
    return widget;
}

} // namespace Loopscope::Ui
