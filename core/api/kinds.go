package api

// kindTable lists every kind kubeplay serves, in discovery order.
var kindTable = []kindEntry{}
